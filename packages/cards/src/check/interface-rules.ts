import { type JsonObject, member } from '../json/card-json.ts';
import { describeValue, quote } from '../json/describe-value.ts';
import { type CardProblem, error, warning } from './card-problem.ts';

/** Bindings every A2A peer knows by name. */
const STANDARD_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']);
/** Bindings that run over plain HTTP, so their URL is an http(s) one. */
const HTTP_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON']);
const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$|\.localhost$/;

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** One interface as both versions have it: where, how, and where each field sits in the card. */
export interface CardEndpoint {
  url: unknown;
  binding: unknown;
  urlPath: string;
  bindingPath: string;
}

/** The URL of one interface: http(s) for JSONRPC and HTTP+JSON, any absolute URI for the rest. */
export function urlProblems({ url, binding, urlPath }: CardEndpoint): CardProblem[] {
  if (typeof url !== 'string') return [];
  const parsed = parseUrl(url);
  const name = typeof binding === 'string' ? binding : '';
  if (HTTP_BINDINGS.has(name) && (!parsed || !['http:', 'https:'].includes(parsed.protocol))) {
    return [
      error({
        rule: 'interface-url',
        path: urlPath,
        message: `${urlPath} must be an absolute http(s) URL for the ${name} binding`,
        hint: `It is ${describeValue(url)}. Write the full endpoint, e.g. "https://agent.example/a2a/jsonrpc".`,
      }),
    ];
  }
  if (!parsed) {
    return [
      error({
        rule: 'interface-url',
        path: urlPath,
        message: `${urlPath} must be an absolute URI`,
        hint: `It is ${describeValue(url)}. Write it with its scheme, e.g. "https://agent.example:443" or "bullmq://queue/agent".`,
      }),
    ];
  }
  if (parsed.protocol === 'http:' && !LOOPBACK.test(parsed.hostname)) {
    return [
      warning({
        rule: 'plain-http',
        path: urlPath,
        message: `${urlPath} uses plain http`,
        hint: 'Serve it over https outside local development: the spec asks for https in production.',
      }),
    ];
  }
  return [];
}

/** A binding outside JSONRPC, HTTP+JSON and GRPC should be a URI (spec §12), and is often a typo. */
export function bindingProblems({ binding, bindingPath }: CardEndpoint): CardProblem[] {
  if (typeof binding !== 'string' || STANDARD_BINDINGS.has(binding)) return [];
  const standard = [...STANDARD_BINDINGS].find(
    (known) => known.replace(/\W/g, '') === binding.toUpperCase().replace(/\W/g, ''),
  );
  if (standard || binding.toUpperCase() === 'REST') {
    return [
      warning({
        rule: 'custom-binding',
        path: bindingPath,
        message: `${bindingPath} ${quote(binding)} is not a standard binding name`,
        hint: `Binding names are exact: write ${quote(standard ?? 'HTTP+JSON')}.`,
      }),
    ];
  }
  if (/^[a-z][a-z0-9+.-]*:\S+$/i.test(binding)) return [];
  return [
    warning({
      rule: 'custom-binding',
      path: bindingPath,
      message: `${bindingPath} ${quote(binding)} is a custom binding but not a URI`,
      hint: 'Name a custom binding with a URI you control, e.g. "https://example.com/a2a-bindings/queue/v1", and change it for breaking changes.',
    }),
  ];
}

/** Interfaces listed twice (same url, binding and, for v1.0, version and tenant). */
export function duplicateProblems(entries: { key: string | undefined; path: string }[]): CardProblem[] {
  const first = new Map<string, string>();
  return entries.flatMap(({ key, path }) => {
    if (key === undefined) return [];
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, path);
      return [];
    }
    return [
      warning({
        rule: 'duplicate-interface',
        path,
        message: `${path} repeats ${earlier}`,
        hint: 'List each interface once.',
      }),
    ];
  });
}

/** v1.0 interfaces state their protocol version as Major.Minor; peers match it exactly. */
export function interfaceVersionProblems(entry: JsonObject, path: string): CardProblem[] {
  const version = entry.protocolVersion;
  if (typeof version === 'string' && /^\d+\.\d+$/.test(version) && !['0.3', '1.0'].includes(version)) {
    return [
      warning({
        rule: 'protocol-version',
        path: member(path, 'protocolVersion'),
        message: `${member(path, 'protocolVersion')} is ${quote(version)}, a version this checker does not know`,
        hint: 'A2A has versions 0.3 and 1.0; clients that do not speak this one will skip the interface.',
      }),
    ];
  }
  if (typeof version !== 'string' || /^\d+\.\d+$/.test(version)) return [];
  const majorMinor = /^(\d+\.\d+)\.\d+/.exec(version)?.[1];
  const versionPath = member(path, 'protocolVersion');
  return [
    error({
      rule: 'protocol-version',
      path: versionPath,
      message: `${versionPath} must be Major.Minor, like "1.0"`,
      hint: majorMinor
        ? `Write "${majorMinor}": peers compare the version exactly, and v1.0 leaves the patch number out.`
        : `It is ${describeValue(version)}; write the A2A version this interface speaks, e.g. "1.0" or "0.3".`,
    }),
  ];
}

/** A v0.3 card's `protocolVersion`: "0.3.0" (a2a-js also writes "0.3"). */
export function v03VersionProblems(card: JsonObject): CardProblem[] {
  const version = card.protocolVersion;
  if (typeof version !== 'string') return [];
  if (!/^\d+\.\d+(\.\d+)?$/.test(version)) {
    return [
      error({
        rule: 'protocol-version',
        path: '$.protocolVersion',
        message: '$.protocolVersion must be a version like "0.3.0"',
        hint: `It is ${describeValue(version)}; write "0.3.0".`,
      }),
    ];
  }
  if (/^0\.3(\.|$)/.test(version)) return [];
  if (!/^0\./.test(version)) {
    return [
      error({
        rule: 'protocol-version',
        path: '$.protocolVersion',
        message: `$.protocolVersion is ${quote(version)}, not an A2A version a v0.3-shaped card can have`,
        hint: 'A2A has versions 0.3 and 1.0. A v0.3-shaped card speaks 0.3: write "0.3.0"; a v1.0 card states its version per interface in supportedInterfaces.',
      }),
    ];
  }
  return [
    warning({
      rule: 'protocol-version',
      path: '$.protocolVersion',
      message: `$.protocolVersion is ${quote(version)} but the card has the v0.3 shape`,
      hint: 'A v0.3-shaped card speaks 0.3: write "0.3.0". For v1.0, convert the card with `switchboard cards convert --to 1.0`, which states the version per interface.',
    }),
  ];
}
