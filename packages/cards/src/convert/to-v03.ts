import { CardsError } from '../errors.ts';
import {
  type CardWarning,
  type ConvertedCard,
  detectCardVersion,
  isObject,
  type JsonObject,
  member,
  objects,
  pick,
} from '../json/card-json.ts';
import { convertSkills, requirementsToV03, schemeToV03 } from './security-shapes.ts';

/** Bindings a v0.3 peer knows by name. */
const V03_TRANSPORTS = new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']);

const isV03Version = (version: unknown) =>
  version === undefined || version === '' || (typeof version === 'string' && /^0\.3(\.\d+)?$/.test(version));

/**
 * A v1.0 card in its v0.3 form, for v0.3 peers. Keeps only the interfaces a v0.3 peer can reach
 * (those listed for protocol version 0.3; failing that, the standard HTTP and gRPC bindings, with a
 * warning), moves the preferred one to `url` / `preferredTransport`, lists all of them in
 * `additionalInterfaces`, writes security in v0.3 form, and reports every lossy step with its path.
 * Throws when no interface is left that a v0.3 peer could use.
 */
export function toV03(card: JsonObject): ConvertedCard {
  const warnings: CardWarning[] = [];
  const version = detectCardVersion(card);
  if (version === '0.3') return { card: structuredClone(card), warnings };
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
    ...pick(card, ['provider', 'iconUrl', 'version', 'documentationUrl']),
    capabilities: pick(capabilities, ['streaming', 'pushNotifications', 'extensions']),
    ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    ...(objects(card.securityRequirements).length > 0
      ? { security: requirementsToV03(card.securityRequirements) }
      : {}),
    defaultInputModes: card.defaultInputModes ?? [],
    defaultOutputModes: card.defaultOutputModes ?? [],
    skills: convertSkills({
      skills: card.skills,
      from: 'securityRequirements',
      to: 'security',
      convert: requirementsToV03,
    }),
    supportsAuthenticatedExtendedCard: capabilities.extendedAgentCard === true,
  };
  return { card: out, warnings };
}
