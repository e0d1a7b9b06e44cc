import {
  type CardWarning,
  type ConvertedCard,
  isObject,
  type JsonObject,
  member,
  objects,
  pick,
  V03_ONLY_FIELDS,
} from '../json/card-json.ts';
import { describeValue } from '../json/describe-value.ts';
import {
  checkedOutput,
  convertibleVersion,
  KNOWN_CARD_FIELDS,
  providerOf,
  unknownFields,
} from './card-fields.ts';
import { convertSkills, requirementsFromV03, schemeFromV03 } from './security-shapes.ts';

const INTERFACE_FIELDS = ['url', 'protocolBinding', 'protocolVersion', 'tenant'];
const CAPABILITY_FIELDS = ['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard'];

/** `0.3.0` → `0.3`: v1.0 writes protocol versions as Major.Minor. */
function majorMinor(version: unknown, fallback: string): string {
  const match = typeof version === 'string' ? /^(\d+)\.(\d+)/.exec(version) : null;
  return match ? `${match[1]}.${match[2]}` : fallback;
}

/** A v1.0 card's own interfaces, each with the Major.Minor protocol version v1.0 requires. */
function ownInterfaces(card: JsonObject, warnings: CardWarning[]): JsonObject[] {
  return objects(card.supportedInterfaces).map((entry, index) => {
    const path = `$.supportedInterfaces[${index}]`;
    unknownFields({ source: entry, known: INTERFACE_FIELDS, path, target: '1.0', warnings });
    const protocolVersion = majorMinor(entry.protocolVersion, '1.0');
    if (entry.protocolVersion === undefined) {
      warnings.push({
        path: `${path}.protocolVersion`,
        message: 'missing, and v1.0 requires it; written as "1.0"',
      });
    } else if (entry.protocolVersion !== protocolVersion && typeof entry.protocolVersion === 'string') {
      if (/^\d+\.\d+/.test(entry.protocolVersion)) {
        warnings.push({
          path: `${path}.protocolVersion`,
          message: `"${entry.protocolVersion}" written as "${protocolVersion}" (v1.0 states Major.Minor)`,
        });
      }
    }
    return {
      ...pick(entry, ['url', 'protocolBinding']),
      protocolVersion:
        typeof entry.protocolVersion === 'string' && !/^\d+\.\d+/.test(entry.protocolVersion)
          ? entry.protocolVersion
          : protocolVersion,
      ...pick(entry, ['tenant']),
    };
  });
}

/** A v0.3 card's `url` and `additionalInterfaces` as v1.0 interfaces for protocol 0.3, once each. */
function v03Interfaces(card: JsonObject, warnings: CardWarning[]): JsonObject[] {
  const protocolVersion = majorMinor(card.protocolVersion, '0.3');
  const seen = new Set<string>();
  const interfaces: JsonObject[] = [];
  const add = (url: unknown, binding: unknown) => {
    if (typeof url !== 'string' || !url) return;
    const protocolBinding = typeof binding === 'string' && binding ? binding : 'JSONRPC';
    const key = `${protocolBinding} ${url}`;
    if (seen.has(key)) return;
    seen.add(key);
    interfaces.push({ url, protocolBinding, protocolVersion });
  };
  add(card.url, card.preferredTransport);
  objects(card.additionalInterfaces).forEach((entry, index) => {
    unknownFields({
      source: entry,
      known: ['url', 'transport'],
      path: `$.additionalInterfaces[${index}]`,
      target: '1.0',
      warnings,
    });
    add(entry.url, entry.transport);
  });
  if (interfaces.length === 0) {
    warnings.push({
      path: '$.url',
      message: 'no url: the v1.0 card has no interface, so no client can reach the agent',
    });
  }
  return interfaces;
}

/** The v0.3 fields of a card that has its own supportedInterfaces: which are used, which reported. */
function strayV03Fields(card: JsonObject, hybrid: boolean, warnings: CardWarning[]): void {
  const used = new Set(['security', 'supportsAuthenticatedExtendedCard']);
  for (const field of V03_ONLY_FIELDS.filter((name) => name in card && !used.has(name))) {
    warnings.push({
      path: `$.${field}`,
      message: hybrid
        ? 'hybrid card: supportedInterfaces is used, this v0.3 field is ignored'
        : 'a v0.3 field in a v1.0 card; supportedInterfaces is used, this field is left out',
    });
  }
  if (card.security !== undefined && card.securityRequirements !== undefined && !hybrid) {
    warnings.push({
      path: '$.security',
      message: 'a v0.3 field next to securityRequirements, which is used; left out',
    });
  }
}

function capabilitiesOf(card: JsonObject, warnings: CardWarning[]): JsonObject {
  if (card.capabilities !== undefined && !isObject(card.capabilities)) {
    warnings.push({
      path: '$.capabilities',
      message: `${describeValue(card.capabilities)}, not an object of capabilities; left out`,
    });
  }
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  if ('stateTransitionHistory' in capabilities) {
    warnings.push({ path: '$.capabilities.stateTransitionHistory', message: 'removed in v1.0; left out' });
  }
  unknownFields({
    source: extra(capabilities, ['stateTransitionHistory']),
    known: CAPABILITY_FIELDS,
    path: '$.capabilities',
    target: '1.0',
    warnings,
  });
  return {
    ...pick(capabilities, ['streaming', 'pushNotifications', 'extensions']),
    ...(card.supportsAuthenticatedExtendedCard === true || capabilities.extendedAgentCard === true
      ? { extendedAgentCard: true }
      : {}),
  };
}

const extra = (source: JsonObject, leaveOut: string[]) =>
  Object.fromEntries(Object.entries(source).filter(([key]) => !leaveOut.includes(key)));

/**
 * A card of any version in its v1.0 form. A v0.3 card's `url` and `additionalInterfaces` become
 * `supportedInterfaces` for protocol 0.3, without duplicates; a v1.0 or hybrid card keeps its own
 * (each with the `protocolVersion` v1.0 requires). Security moves to the v1.0 oneof form (schemes in
 * either form, requirements in any published shape, scopes kept), keeping one OAuth flow where
 * v0.3 allowed several. Every field that v1.0 cannot hold is reported with its path. Throws a
 * `CardsError` (`NOT_A_CARD`) for a document that is not an A2A card, and (`NOT_CONVERTIBLE`) when
 * the result would not pass {@link checkCard} for v1.0.
 */
export function fromV03(card: JsonObject): ConvertedCard {
  const version = convertibleVersion(card);
  const warnings: CardWarning[] = [];
  const own = 'supportedInterfaces' in card;
  if (own) strayV03Fields(card, version === 'hybrid', warnings);
  const supportedInterfaces = own ? ownInterfaces(card, warnings) : v03Interfaces(card, warnings);
  unknownFields({ source: card, known: KNOWN_CARD_FIELDS, path: '$', target: '1.0', warnings });
  const capabilities = capabilitiesOf(card, warnings);
  const provider = providerOf(card, warnings);
  const securitySchemes: JsonObject = {};
  for (const [name, scheme] of Object.entries(isObject(card.securitySchemes) ? card.securitySchemes : {})) {
    const converted = schemeFromV03(scheme, member('$.securitySchemes', name), warnings);
    if (converted) securitySchemes[name] = converted;
  }
  const requirementsField = card.securityRequirements !== undefined ? 'securityRequirements' : 'security';
  const securityRequirements = requirementsFromV03(
    card[requirementsField],
    `$.${requirementsField}`,
    warnings,
  );
  const skills = convertSkills({
    skills: card.skills,
    from: 'security',
    to: 'securityRequirements',
    convert: requirementsFromV03,
    warnings,
  });
  const keepSignatures = version === '1.0' && warnings.length === 0;
  if (objects(card.signatures).length > 0 && !keepSignatures) {
    warnings.push({
      path: '$.signatures',
      message:
        'signatures are bound to the card as it was signed and would not verify on the converted card; left out',
    });
  }
  const out: JsonObject = {
    ...pick(card, ['name', 'description']),
    supportedInterfaces,
    ...provider,
    ...pick(card, ['version', 'documentationUrl']),
    capabilities,
    ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    ...(securityRequirements.length > 0 ? { securityRequirements } : {}),
    defaultInputModes: Array.isArray(card.defaultInputModes) ? card.defaultInputModes : [],
    defaultOutputModes: Array.isArray(card.defaultOutputModes) ? card.defaultOutputModes : [],
    skills,
    ...pick(card, ['iconUrl']),
    ...(keepSignatures ? pick(card, ['signatures']) : {}),
  };
  return checkedOutput(out, '1.0', warnings);
}
