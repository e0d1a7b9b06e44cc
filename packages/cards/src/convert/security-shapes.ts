import { type CardWarning, isObject, type JsonObject, member, pick } from '../json/card-json.ts';
import { describeValue } from '../json/describe-value.ts';
import { type Requirement, readRequirements } from '../json/security-requirements.ts';

/** v0.3 OAuth flows in the order v1.0 keeps one of them (it allows exactly one). */
const FLOW_PREFERENCE = ['authorizationCode', 'clientCredentials', 'implicit', 'password'] as const;

/** One v1.0 security scheme (`{ "<variant>SecurityScheme": {...} }`) in its v0.3 form. */
export function schemeToV03(scheme: unknown, path: string, warnings: CardWarning[]): JsonObject | undefined {
  if (!isObject(scheme)) {
    warnings.push({ path, message: 'not an object; left out' });
    return undefined;
  }
  // A v1.0 card may carry a scheme in the v0.3 form already: keep it as it is.
  if (typeof scheme.type === 'string') return structuredClone(scheme);
  const [variant, body] = Object.entries(scheme)[0] ?? [];
  const value = isObject(body) ? body : {};
  const description = pick(value, ['description']);
  switch (variant) {
    case 'httpAuthSecurityScheme':
      return { type: 'http', ...description, ...pick(value, ['scheme', 'bearerFormat']) };
    case 'apiKeySecurityScheme': {
      const location = typeof value.location === 'string' ? value.location : 'header';
      const known = ['header', 'query', 'cookie'].includes(location);
      if (!known) {
        warnings.push({
          path: member(member(path, variant), 'location'),
          message: `location "${location}" has no v0.3 equivalent; written as in: "header"`,
        });
      }
      return { type: 'apiKey', ...description, in: known ? location : 'header', ...pick(value, ['name']) };
    }
    case 'oauth2SecurityScheme': {
      const flows = isObject(value.flows) ? value.flows : {};
      const out: JsonObject = {};
      for (const [flow, settings] of Object.entries(flows)) {
        const flowPath = member(member(member(path, variant), 'flows'), flow);
        if (flow === 'deviceCode') {
          warnings.push({ path: flowPath, message: 'the device code flow does not exist in v0.3; left out' });
          continue;
        }
        const copy = isObject(settings) ? { ...settings } : {};
        if (copy.pkceRequired === true) {
          warnings.push({
            path: member(flowPath, 'pkceRequired'),
            message: 'pkceRequired does not exist in v0.3; left out',
          });
        }
        delete copy.pkceRequired;
        out[flow] = copy;
      }
      return { type: 'oauth2', ...description, flows: out, ...pick(value, ['oauth2MetadataUrl']) };
    }
    case 'openIdConnectSecurityScheme':
      return { type: 'openIdConnect', ...description, ...pick(value, ['openIdConnectUrl']) };
    case 'mtlsSecurityScheme':
      return { type: 'mutualTLS', ...description };
    default:
      warnings.push({ path, message: `unknown security scheme "${variant ?? '(none)'}"; left out` });
      return undefined;
  }
}

const V03_SCHEME_FIELDS = [
  'type',
  'description',
  'scheme',
  'bearerFormat',
  'in',
  'name',
  'flows',
  'openIdConnectUrl',
  'oauth2MetadataUrl',
];

/** One v0.3 security scheme (`{ "type": ... }`) in its v1.0 form. */
export function schemeFromV03(
  scheme: unknown,
  path: string,
  warnings: CardWarning[],
): JsonObject | undefined {
  if (!isObject(scheme)) {
    warnings.push({ path, message: 'not an object; left out' });
    return undefined;
  }
  // A hybrid card may already carry the v1.0 form: keep it as it is.
  if (
    scheme.type === undefined &&
    Object.keys(scheme).length === 1 &&
    /SecurityScheme$/.test(Object.keys(scheme)[0] ?? '')
  ) {
    return structuredClone(scheme);
  }
  for (const key of Object.keys(scheme).filter((key) => !V03_SCHEME_FIELDS.includes(key))) {
    warnings.push({ path: member(path, key), message: 'not a field of a security scheme; left out' });
  }
  const description = pick(scheme, ['description']);
  switch (scheme.type) {
    case 'http':
      return { httpAuthSecurityScheme: { ...description, ...pick(scheme, ['scheme', 'bearerFormat']) } };
    case 'apiKey':
      return {
        apiKeySecurityScheme: { ...description, location: scheme.in ?? 'header', ...pick(scheme, ['name']) },
      };
    case 'oauth2': {
      const flows = isObject(scheme.flows) ? scheme.flows : {};
      const chosen = FLOW_PREFERENCE.find((flow) => isObject(flows[flow]));
      for (const flow of Object.keys(flows)) {
        if (flow !== chosen) {
          warnings.push({
            path: member(member(path, 'flows'), flow),
            message: `v1.0 allows one OAuth flow; kept ${chosen ?? 'none'}, left out ${flow}`,
          });
        }
      }
      if (chosen === 'implicit' || chosen === 'password') {
        warnings.push({
          path: member(member(path, 'flows'), chosen),
          message: `the ${chosen} flow is deprecated in v1.0`,
        });
      }
      if (!chosen) warnings.push({ path: member(path, 'flows'), message: 'no OAuth flow to keep' });
      return {
        oauth2SecurityScheme: {
          ...description,
          flows: chosen ? { [chosen]: flows[chosen] } : {},
          ...pick(scheme, ['oauth2MetadataUrl']),
        },
      };
    }
    case 'openIdConnect':
      return { openIdConnectSecurityScheme: { ...description, ...pick(scheme, ['openIdConnectUrl']) } };
    case 'mutualTLS':
      return { mtlsSecurityScheme: { ...description } };
    default:
      warnings.push({
        path: member(path, 'type'),
        message: `unknown security scheme type "${String(scheme.type)}"; left out`,
      });
      return undefined;
  }
}

function readOrWarn(requirements: unknown, path: string, warnings: CardWarning[]): Requirement[] {
  const { requirements: read, unread } = readRequirements(requirements, path);
  for (const { path: at, value } of unread) {
    warnings.push({ path: at, message: `${describeValue(value)} is not a security requirement; left out` });
  }
  return read;
}

/** Security requirements in any shape → v0.3 `security`; what cannot be read is reported. */
export function requirementsToV03(
  requirements: unknown,
  path: string,
  warnings: CardWarning[],
): JsonObject[] {
  return readOrWarn(requirements, path, warnings).map((requirement) =>
    Object.fromEntries(requirement.map(({ name, scopes }) => [name, scopes])),
  );
}

/** Security requirements in any shape → v1.0 `securityRequirements`; what cannot be read is reported. */
export function requirementsFromV03(
  requirements: unknown,
  path: string,
  warnings: CardWarning[],
): JsonObject[] {
  return readOrWarn(requirements, path, warnings).map((requirement) => ({
    schemes: Object.fromEntries(requirement.map(({ name, scopes }) => [name, { list: scopes }])),
  }));
}

const SKILL_FIELDS = ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes'];

/**
 * Skills in the other version's shape: the same fields, with their security requirements moved
 * from `from` to `to` and converted.
 */
export function convertSkills({
  skills,
  from,
  to,
  convert,
  warnings,
}: {
  skills: unknown;
  from: 'security' | 'securityRequirements';
  to: 'security' | 'securityRequirements';
  convert: (requirements: unknown, path: string, warnings: CardWarning[]) => JsonObject[];
  warnings: CardWarning[];
}): JsonObject[] {
  if (skills !== undefined && !Array.isArray(skills)) {
    warnings.push({ path: '$.skills', message: `${describeValue(skills)}, not a list of skills; left out` });
  }
  return (Array.isArray(skills) ? skills : []).flatMap((skill, index) => {
    const path = `$.skills[${index}]`;
    if (!isObject(skill)) {
      warnings.push({ path, message: `${describeValue(skill)}, not a skill; left out` });
      return [];
    }
    const other = to === 'security' ? 'security' : 'securityRequirements';
    const requirements = skill[from] ?? skill[other];
    const source = skill[from] === undefined ? other : from;
    const extra = Object.keys(skill).filter(
      (key) => !SKILL_FIELDS.includes(key) && key !== from && key !== other,
    );
    if (to === 'securityRequirements') {
      for (const key of extra) {
        warnings.push({ path: member(path, key), message: 'not a field of an A2A v1.0 skill; left out' });
      }
    }
    const converted = Array.isArray(requirements) ? convert(requirements, `${path}.${source}`, warnings) : [];
    return [
      {
        ...pick(skill, SKILL_FIELDS),
        tags: Array.isArray(skill.tags) ? skill.tags : [],
        ...(converted.length > 0 ? { [to]: converted } : {}),
        ...(to === 'security' ? Object.fromEntries(extra.map((key) => [key, skill[key]])) : {}),
      },
    ];
  });
}
