import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { CardsError } from '../errors.ts';
import { isObject, type JsonObject } from '../json/card-json.ts';

/** A compiled card schema, and a way to reach the schemas its `$ref`s name. */
export interface CardSchema {
  validate: ValidateFunction;
  /** The compiled schema a `$ref` inside it points to (used to explain anyOf failures). */
  resolve: (ref: string) => ValidateFunction | undefined;
}

const V03_ID = 'a2a-v0.3.0.schema.json';

/**
 * What `a2a.proto` (v1.0.1) marks REQUIRED, by definition. The v1.0 bundle is generated from the
 * proto without these markers; where the two disagree the proto wins (shared/spec/README.md).
 */
const V1_REQUIRED: Record<string, string[]> = {
  AgentCard: [
    'name',
    'description',
    'supportedInterfaces',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  AgentInterface: ['url', 'protocolBinding', 'protocolVersion'],
  AgentProvider: ['url', 'organization'],
  AgentSkill: ['id', 'name', 'description', 'tags'],
  AgentCardSignature: ['protected', 'signature'],
  APIKeySecurityScheme: ['location', 'name'],
  HTTPAuthSecurityScheme: ['scheme'],
  OAuth2SecurityScheme: ['flows'],
  OpenIdConnectSecurityScheme: ['openIdConnectUrl'],
  AuthorizationCodeOAuthFlow: ['authorizationUrl', 'tokenUrl', 'scopes'],
  ClientCredentialsOAuthFlow: ['tokenUrl', 'scopes'],
  DeviceCodeOAuthFlow: ['deviceAuthorizationUrl', 'tokenUrl', 'scopes'],
};

/** Proto `oneof`s: exactly one member may be set. */
const V1_ONE_OF = new Set(['SecurityScheme', 'OAuthFlows']);

const GOOGLE_TYPES = new Set(['Struct', 'Timestamp', 'Value']);

function readSchema(file: string): JsonObject {
  try {
    const parsed: unknown = JSON.parse(
      readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8'),
    );
    if (isObject(parsed)) return parsed;
  } catch (cause) {
    throw new CardsError('SCHEMA_UNAVAILABLE', {
      message: `packages/cards/schemas/${file} could not be read`,
      cause,
    });
  }
  throw new CardsError('SCHEMA_UNAVAILABLE', {
    message: `packages/cards/schemas/${file} is not a JSON object`,
  });
}

function compileV03(): CardSchema {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
  formatsModule.default(ajv);
  ajv.addSchema(readSchema(V03_ID), V03_ID);
  const validate = ajv.getSchema(`${V03_ID}#/definitions/AgentCard`);
  if (!validate)
    throw new CardsError('SCHEMA_UNAVAILABLE', { message: 'AgentCard is missing from the v0.3 schema' });
  return { validate, resolve: (ref) => ajv.getSchema(ref.startsWith('#') ? `${V03_ID}${ref}` : ref) };
}

/**
 * The bundle's refs are file names (`lf.a2a.v1.AgentCard.jsonschema.json`) while its definitions
 * are keyed by title ("Agent Card"): each definition is registered under the file name its title
 * makes, with the proto's REQUIRED fields and oneofs added.
 */
function compileV1(): CardSchema {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
  formatsModule.default(ajv);
  const definitions = readSchema('a2a-v1.0.schema.json').definitions;
  for (const [title, definition] of Object.entries(isObject(definitions) ? definitions : {})) {
    if (!isObject(definition)) continue;
    const name = title.replaceAll(' ', '');
    const required = V1_REQUIRED[name];
    ajv.addSchema({
      ...definition,
      $id: `${GOOGLE_TYPES.has(name) ? 'google.protobuf' : 'lf.a2a.v1'}.${name}.jsonschema.json`,
      ...(required ? { required } : {}),
      ...(V1_ONE_OF.has(name) ? { minProperties: 1, maxProperties: 1 } : {}),
    });
  }
  const validate = ajv.getSchema('lf.a2a.v1.AgentCard.jsonschema.json');
  if (!validate) {
    throw new CardsError('SCHEMA_UNAVAILABLE', {
      message: 'Agent Card is missing from the v1.0 schema bundle',
    });
  }
  return { validate, resolve: (ref) => ajv.getSchema(ref) };
}

const compiled: { '0.3'?: CardSchema; '1.0'?: CardSchema } = {};

/** The schema of one card version, compiled on first use and reused afterwards. */
export function cardSchema(version: '0.3' | '1.0'): CardSchema {
  if (version === '0.3') {
    compiled['0.3'] ??= compileV03();
    return compiled['0.3'];
  }
  compiled['1.0'] ??= compileV1();
  return compiled['1.0'];
}
