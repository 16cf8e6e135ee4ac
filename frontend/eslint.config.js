// @ts-check
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Imports flow one way: shared (api, components, hooks, lib) -> features -> app,
// and a feature never imports another feature (compose them in src/app instead).
const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layering = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: "./src/features",
    except: [`./${feature}`],
    message: "Features don't import each other: compose them in src/app.",
  })),
  {
    target: "./src/features",
    from: "./src/app",
    message: "src/app composes features, not the reverse.",
  },
  {
    target: ["./src/api", "./src/components", "./src/hooks", "./src/lib"],
    from: ["./src/features", "./src/app"],
    message: "Shared code must not depend on features or the app.",
  },
];

export default tseslint.config(
  { ignores: ["dist", "node_modules", "test-artifacts", "test-results", "playwright-report"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks, "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "import-x/no-restricted-paths": ["error", { zones: layering }],
      "import-x/no-cycle": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "ExportAllDeclaration",
          message: "No barrel files: import from the module itself.",
        },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["*.{js,ts}", "e2e/**/*.ts", "scripts/**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
