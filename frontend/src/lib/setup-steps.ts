/**
 * What comes first: the things a project section's own thing needs, when the project has none
 * of them yet, in the order they are made. The empty states say these with a link to each.
 */

/** How many of each the project holds; undefined: not known (still loading, or the caller may
 * not list them: then nothing is said about them). */
export interface Holdings {
  keys?: number;
  repositories?: number;
  inventories?: number;
  templates?: number;
}

export type Thing = "key" | "repository" | "inventory" | "template";

export interface SetupStep {
  thing: Thing;
  /** needed only in some cases (a key: a private git server, hosts that need a login) */
  optional: boolean;
}

/** The sections whose empty state can say what they need first. */
export type GuidedSection =
  "templates" | "repositories" | "inventories" | "schedules" | "webhooks" | "workflows";

const none = (count: number | undefined) => count === 0;

/**
 * The missing prerequisites of `section`, in the order to make them. A template needs a
 * repository and an inventory (and a key when the git server or the hosts need a login: said
 * while a repository or an inventory is still to be made, as they are where it is asked for);
 * a repository may need a key; an inventory may read a repository; schedules, webhooks and
 * workflows launch templates. Nothing unknown is said missing.
 */
export function missingFirst(section: GuidedSection, holdings: Holdings): SetupStep[] {
  const { keys, repositories, inventories, templates } = holdings;
  switch (section) {
    case "templates": {
      const steps: SetupStep[] = [];
      if (none(keys) && (none(repositories) || none(inventories))) {
        steps.push({ thing: "key", optional: true });
      }
      if (none(repositories)) steps.push({ thing: "repository", optional: false });
      if (none(inventories)) steps.push({ thing: "inventory", optional: false });
      return steps;
    }
    case "repositories":
      return none(keys) ? [{ thing: "key", optional: true }] : [];
    case "inventories":
      return none(repositories) ? [{ thing: "repository", optional: true }] : [];
    case "schedules":
    case "webhooks":
    case "workflows":
      return none(templates) ? [{ thing: "template", optional: false }] : [];
  }
}

/** The sections each thing is listed in (where its "New …" link goes). */
export const SECTION_OF: Record<Thing, string> = {
  key: "keys",
  repository: "repositories",
  inventory: "inventories",
  template: "templates",
};

/** The things whose counts a section's empty state needs (only these are asked for). */
export function countsFor(section: GuidedSection): (keyof Holdings)[] {
  switch (section) {
    case "templates":
      return ["keys", "repositories", "inventories"];
    case "repositories":
      return ["keys"];
    case "inventories":
      return ["repositories"];
    default:
      return ["templates"];
  }
}
