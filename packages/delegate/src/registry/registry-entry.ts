import { AgentCard } from '@a2a-js/sdk';
import { z } from 'zod';

/** One running instance of an agent, as its heartbeat last described it. */
export interface RegistryInstance {
  instanceId: string;
  /** When its last heartbeat was written. */
  lastSeen: Date;
  /** What the instance published with its card (region, version, pod name…). */
  metadata: Record<string, string>;
}

/** A live agent: its card and the instances currently serving it. */
export interface RegistryEntry {
  name: string;
  /** The card of the instance seen most recently (instances of a rolling deploy may differ). */
  card: AgentCard;
  /** Sorted by instance id. */
  instances: RegistryInstance[];
}

/**
 * The parts of a stored v1.0 card (`AgentCard.toJSON`) that discovery relies on. Checked before
 * `AgentCard.fromJSON`, which accepts anything.
 */
export const StoredAgentCard = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  supportedInterfaces: z
    .array(z.looseObject({ url: z.string().min(1), protocolBinding: z.string().min(1) }))
    .min(1),
});
export type StoredAgentCard = z.infer<typeof StoredAgentCard>;

const Metadata = z.record(z.string(), z.string());

/** The member of the instance index for one instance: the JSON array `["<name>","<instanceId>"]`. */
export function indexMember(name: string, instanceId: string): string {
  return JSON.stringify([name, instanceId]);
}

/** Reads an index member back; `undefined` when it is not one of ours. */
export function parseIndexMember(member: string): { name: string; instanceId: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(member);
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { name: parsed[0], instanceId: parsed[1] };
    }
  } catch {
    // not JSON: not ours
  }
  return undefined;
}

/** The hash fields of an instance entry, in the order they are read. */
export const INSTANCE_FIELDS = ['card', 'metadata', 'lastSeen'] as const;

/** One instance read back from Redis, or why it cannot be used. */
export type StoredInstanceResult =
  | { ok: true; card: AgentCard; instance: RegistryInstance }
  | { ok: false; reason: string };

/** Validates the fields of one instance entry; never throws. */
export function readStoredInstance({
  name,
  instanceId,
  fields,
}: {
  name: string;
  instanceId: string;
  fields: readonly (string | null | undefined)[];
}): StoredInstanceResult {
  const [cardJson, metadataJson, lastSeenText] = fields;
  if (!cardJson || !metadataJson || !lastSeenText) return { ok: false, reason: 'missing fields' };
  let rawCard: unknown;
  let rawMetadata: unknown;
  try {
    rawCard = JSON.parse(cardJson);
    rawMetadata = JSON.parse(metadataJson);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const card = StoredAgentCard.safeParse(rawCard);
  if (!card.success) return { ok: false, reason: `invalid card: ${z.prettifyError(card.error)}` };
  if (card.data.name !== name) return { ok: false, reason: `card is named "${card.data.name}"` };
  const metadata = Metadata.safeParse(rawMetadata);
  if (!metadata.success) return { ok: false, reason: `invalid metadata: ${z.prettifyError(metadata.error)}` };
  const lastSeen = Number(lastSeenText);
  if (!Number.isFinite(lastSeen)) return { ok: false, reason: `invalid lastSeen "${lastSeenText}"` };
  return {
    ok: true,
    card: AgentCard.fromJSON(card.data),
    instance: { instanceId, lastSeen: new Date(lastSeen), metadata: metadata.data },
  };
}
