import type { ReactNode } from "react";
import type { Schemas } from "@/api/client";

type KeyKind = Schemas["KeyKind"];

/** What a form hands the dialog that creates, in place, a thing one of its fields needs. */
export interface CreateInPlaceProps {
  /** the new thing's id: the form selects it in the field that asked */
  onCreated: (id: number) => void;
  /** the dialog closes (after onCreated, or cancelled): the form is as it was */
  onClose: () => void;
}

export interface CreateKeyInPlaceProps extends CreateInPlaceProps {
  /** the kinds the field takes: the dialog offers only these */
  kinds: readonly KeyKind[];
}

/**
 * Renders a create dialog of another feature. Keys, repositories, inventories and environments
 * are each a feature, and features do not import each other: src/app hands a form the dialogs
 * it may open as these functions (none: the caller may not create that thing, no "New …").
 */
export interface CreateInPlace {
  key?: (props: CreateKeyInPlaceProps) => ReactNode;
  repository?: (props: CreateInPlaceProps) => ReactNode;
  inventory?: (props: CreateInPlaceProps) => ReactNode;
  environment?: (props: CreateInPlaceProps) => ReactNode;
}

export type CreatableThing = keyof CreateInPlace;
