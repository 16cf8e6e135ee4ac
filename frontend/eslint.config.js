// @ts-check
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Imports flow one way: shared (api, components, hooks, lib) -> features -> app, and a feature
// never imports another feature (compose them in src/app). What several features need of one
// resource is shared: the lists their pickers show are queries of src/api/queries, the forms
// and views they share are src/components. Imports across folders use the `@/` alias, so these
// patterns see every crossing.
const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const noParentImports = {
  regex: "^\\.\\./",
  message: "Import across folders with the @/ alias, so the layering rules can see it.",
};

/** @param {{ regex: string; message: string }[]} patterns */
const restrict = (...patterns) => ({
  "no-restricted-imports": ["error", { patterns: [noParentImports, ...patterns] }],
});

export default tseslint.config(
  { ignores: ["dist", "node_modules", "test-artifacts", "test-results", "playwright-report"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(),
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
    files: ["src/{api,components,hooks,lib,testing}/**/*.{ts,tsx}"],
    rules: restrict({
      regex: "^@/(features|app)/",
      message: "Shared code must not depend on features or the app.",
    }),
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: restrict(
      {
        regex: `^@/features/(?!${feature}/)`,
        message: "Features don't import each other: compose them in src/app.",
      },
      { regex: "^@/app/", message: "src/app composes features, not the reverse." },
    ),
  })),
  {
    files: ["*.{js,ts}", "e2e/**/*.ts", "scripts/**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
