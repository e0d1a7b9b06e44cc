import { CardsError } from '../errors.ts';
import {
  type CardWarning,
  type ConvertedCard,
  isObject,
  type JsonObject,
  member,
  objects,
  pick,
} from '../json/card-json.ts';
import { sameJson } from '../json/json-equal.ts';
import {
  checkedOutput,
  convertibleVersion,
  extraFields,
  KNOWN_CARD_FIELDS,
  providerOf,
} from './card-fields.ts';
import { convertSkills, requirementsToV03, schemeToV03 } from './security-shapes.ts';

/** Bindings a v0.3 peer knows by name. */
const V03_TRANSPORTS = new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']);

const isV03Version = (version: unknown) =>
  version === undefined || version === '' || (typeof version === 'string' && /^0\.3(\.\d+)?$/.test(version));

/**
 * A v0.3 card made to pass the checker as v0.3: the protocolVersion and skill tags it must have,
 * stray v1.0 fields moved to their v0.3 names; everything else carried as it is.
 */
function normalizeV03(card: JsonObject): ConvertedCard {
  const warnings: CardWarning[] = [];
  const out: JsonObject = { ...structuredClone(card), protocolVersion: card.protocolVersion ?? '0.3.0' };
  if (out.provider !== undefined) {
    const { provider } = providerOf(card, warnings) as { provider?: JsonObject };
    if (provider) out.provider = { ...provider };
    else delete out.provider;
  }
  if (card.capabilities !== undefined && !isObject(card.capabilities)) {
    warnings.push({ path: '$.capabilities', message: 'not an object of capabilities; left out' });
  }
  out.capabilities = isObject(card.capabilities) ? structuredClone(card.capabilities) : {};
  out.defaultInputModes = Array.isArray(card.defaultInputModes) ? card.defaultInputModes : [];
  out.defaultOutputModes = Array.isArray(card.defaultOutputModes) ? card.defaultOutputModes : [];
  out.skills = convertSkills({
    skills: card.skills,
    from: 'security',
    to: 'security',
    convert: requirementsToV03,
    warnings,
  });
  if (card.securityRequirements !== undefined) {
    delete out.securityRequirements;
    if (card.security === undefined) {
      const security = requirementsToV03(card.securityRequirements, '$.securityRequirements', warnings);
      if (security.length > 0) out.security = security;
    } else {
      warnings.push({
        path: '$.securityRequirements',
        message: 'a v1.0 field next to security, which is used; left out',
      });
    }
  }
  return checkedOutput(out, '0.3', warnings);
}

/**
 * A v1.0 card in its v0.3 form, for v0.3 peers. Keeps only the interfaces a v0.3 peer can reach
 * (those listed for protocol version 0.3; failing that, the standard HTTP and gRPC bindings, with a
 * warning), moves the preferred one to `url` / `preferredTransport`, lists all of them in
 * `additionalInterfaces`, writes security in v0.3 form (from `securityRequirements`, or a stray
 * `security`; schemes in either form; scopes kept), carries fields v0.3 does not define as they
 * are, and reports every lossy step with its path. A v0.3 card comes back with only what the v0.3
 * checker requires added. Throws a `CardsError` for a document that is not an A2A card, when no
 * interface is left that a v0.3 peer could use, and when the result would not pass the checker.
 */
export function toV03(card: JsonObject): ConvertedCard {
  const version = convertibleVersion(card);
  if (version === '0.3') return normalizeV03(card);
  const warnings: CardWarning[] = [];
  const interfaces = objects(card.supportedInterfaces).map((entry, index) => ({ entry, index }));
  let reachable = interfaces.filter(
    ({ entry }) => V03_TRANSPORTS.has(String(entry.protocolBinding)) && isV03Version(entry.protocolVersion),
  );
  if (reachable.length === 0) {
    reachable = interfaces.filter(({ entry }) => V03_TRANSPORTS.has(String(entry.protocolBinding)));
    for (const { entry, index } of reachable) {
      warnings.push({
        path: `$.supportedInterfaces[${index}]`,
        message: `listed for protocol ${String(entry.protocolVersion)} only; a v0.3 client reaches it only if the server also accepts v0.3 requests there`,
      });
    }
  }
  for (const { entry, index } of reachable) {
    if (typeof entry.tenant === 'string' && entry.tenant !== '') {
      warnings.push({
        path: `$.supportedInterfaces[${index}].tenant`,
        message: `tenant "${entry.tenant}" cannot be expressed in v0.3; a v0.3 client will not send it`,
      });
    }
  }
  const kept = new Set(reachable.map(({ index }) => index));
  for (const { entry, index } of interfaces) {
    if (kept.has(index)) continue;
    const binding = String(entry.protocolBinding);
    const isDuplicateOfKept = reachable.some(
      (other) => other.entry.url === entry.url && other.entry.protocolBinding === entry.protocolBinding,
    );
    if (!isDuplicateOfKept) {
      warnings.push({
        path: `$.supportedInterfaces[${index}]`,
        message: V03_TRANSPORTS.has(binding)
          ? `${binding} at ${String(entry.url)} is listed for protocol ${String(entry.protocolVersion)} only; left out`
          : `the ${binding} binding does not exist in v0.3; left out`,
      });
    }
  }
  const [primary] = reachable;
  if (!primary) {
    throw new CardsError('INVALID_OPTIONS', {
      message:
        'This card has no interface a v0.3 client can use. List its JSON-RPC or HTTP+JSON interface with protocolVersion "0.3" (and accept v0.3 requests there).',
    });
  }
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  const securitySchemes: JsonObject = {};
  for (const [name, scheme] of Object.entries(isObject(card.securitySchemes) ? card.securitySchemes : {})) {
    const converted = schemeToV03(scheme, member('$.securitySchemes', name), warnings);
    if (converted) securitySchemes[name] = converted;
  }
  if (objects(card.signatures).length > 0) {
    warnings.push({
      path: '$.signatures',
      message: 'signatures are bound to the v1.0 shape and would not verify; left out',
    });
  }
  const requirementsField = card.securityRequirements !== undefined ? 'securityRequirements' : 'security';
  const security = requirementsToV03(card[requirementsField], `$.${requirementsField}`, warnings);
  if (requirementsField === 'securityRequirements' && card.security !== undefined && version !== 'hybrid') {
    warnings.push({
      path: '$.security',
      message: 'a v0.3 field next to securityRequirements, which is used; left out',
    });
  }
  const seen = new Set<string>();
  const additionalInterfaces = reachable.flatMap(({ entry }) => {
    const key = `${String(entry.protocolBinding)} ${String(entry.url)}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ url: entry.url, transport: entry.protocolBinding }];
  });
  const out: JsonObject = {
    protocolVersion: '0.3.0',
    ...pick(card, ['name', 'description']),
    url: primary.entry.url,
    preferredTransport: primary.entry.protocolBinding,
    ...(additionalInterfaces.length > 1 ? { additionalInterfaces } : {}),
    ...providerOf(card, warnings),
    ...pick(card, ['iconUrl', 'version', 'documentationUrl']),
    capabilities: {
      ...pick(capabilities, ['streaming', 'pushNotifications', 'extensions']),
      ...extraFields(capabilities, ['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard']),
    },
    ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    ...(security.length > 0 ? { security } : {}),
    defaultInputModes: card.defaultInputModes ?? [],
    defaultOutputModes: card.defaultOutputModes ?? [],
    skills: convertSkills({
      skills: card.skills,
      from: 'securityRequirements',
      to: 'security',
      convert: requirementsToV03,
      warnings,
    }),
    supportsAuthenticatedExtendedCard:
      capabilities.extendedAgentCard === true || card.supportsAuthenticatedExtendedCard === true,
    ...extraFields(card, KNOWN_CARD_FIELDS),
  };
  for (const field of ['protocolVersion', 'url', 'preferredTransport', 'additionalInterfaces'] as const) {
    if (card[field] !== undefined && !sameJson(card[field], out[field])) {
      warnings.push({ path: `$.${field}`, message: `replaced by the one supportedInterfaces gives` });
    }
  }
  return checkedOutput(out, '0.3', warnings);
}
