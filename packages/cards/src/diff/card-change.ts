/** What kind of difference {@link diffCards} found. */
export type CardChangeKind =
  | 'skill-added'
  | 'skill-removed'
  | 'skill-changed'
  | 'capability-changed'
  | 'interface-added'
  | 'interface-removed'
  | 'security-changed'
  | 'field-changed';

/** One semantic difference between two cards. */
export interface CardChange {
  kind: CardChangeKind;
  /** JSONPath in the v1.0 form of the card: `before`'s for removals, `after`'s otherwise. */
  path: string;
  /** What changed, in words. */
  description: string;
  /** True when a client that worked with `before` may fail with `after`. */
  breaking: boolean;
}

/** The result of {@link diffCards}. */
export interface CardDiff {
  /** Sorted by path, then kind, then description. */
  changes: CardChange[];
  /** True when any change is breaking. */
  breaking: boolean;
}

/** A change, not breaking unless said. */
export const change = (
  kind: CardChangeKind,
  path: string,
  description: string,
  breaking = false,
): CardChange => ({
  kind,
  path,
  description,
  breaking,
});
