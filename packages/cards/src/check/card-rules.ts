import { indexed, keyOf } from '../json/card-entries.ts';
import type { JsonObject } from '../json/card-json.ts';
import { quote } from '../json/describe-value.ts';
import { type CardProblem, type CardReading, error, warning } from './card-problem.ts';
import {
  bindingProblems,
  type CardEndpoint,
  duplicateProblems,
  interfaceVersionProblems,
  urlProblems,
  v03VersionProblems,
} from './interface-rules.ts';
import { securityProblems } from './security-rules.ts';
import { agentVersionProblems, mediaTypeProblems, skillProblems } from './skill-rules.ts';

function v1InterfaceProblems(card: JsonObject): CardProblem[] {
  if (Array.isArray(card.supportedInterfaces) && card.supportedInterfaces.length === 0) {
    return [
      error({
        rule: 'no-interface',
        path: '$.supportedInterfaces',
        message: '$.supportedInterfaces is empty',
        hint: 'List at least one interface, the preferred one first: without one no client can reach the agent.',
      }),
    ];
  }
  const entries = indexed(card.supportedInterfaces).map(([entry, index]) => ({
    entry,
    path: `$.supportedInterfaces[${index}]`,
  }));
  return [
    ...entries.flatMap(({ entry, path }) => {
      const endpoint: CardEndpoint = {
        url: entry.url,
        binding: entry.protocolBinding,
        urlPath: `${path}.url`,
        bindingPath: `${path}.protocolBinding`,
      };
      return [
        ...urlProblems(endpoint),
        ...bindingProblems(endpoint),
        ...interfaceVersionProblems(entry, path),
      ];
    }),
    ...duplicateProblems(
      entries.map(({ entry, path }) => ({
        key: keyOf([entry.url, entry.protocolBinding, entry.protocolVersion, entry.tenant ?? '']),
        path,
      })),
    ),
  ];
}

function v03InterfaceProblems(card: JsonObject): CardProblem[] {
  const main = typeof card.preferredTransport === 'string' ? card.preferredTransport : 'JSONRPC';
  const endpoints: CardEndpoint[] = [
    { url: card.url, binding: main, urlPath: '$.url', bindingPath: '$.preferredTransport' },
    ...indexed(card.additionalInterfaces).map(([entry, index]) => ({
      url: entry.url,
      binding: entry.transport,
      urlPath: `$.additionalInterfaces[${index}].url`,
      bindingPath: `$.additionalInterfaces[${index}].transport`,
    })),
  ];
  const problems = [
    ...v03VersionProblems(card),
    ...endpoints.flatMap((endpoint) => [...urlProblems(endpoint), ...bindingProblems(endpoint)]),
    ...duplicateProblems(
      endpoints.slice(1).map((endpoint) => ({
        key: keyOf([endpoint.url, endpoint.binding]),
        path: endpoint.urlPath.replace(/\.url$/, ''),
      })),
    ),
  ];
  const listed = indexed(card.additionalInterfaces).some(
    ([entry]) => entry.url === card.url && entry.transport === main,
  );
  if (typeof card.url === 'string' && Array.isArray(card.additionalInterfaces) && !listed) {
    problems.push(
      warning({
        rule: 'main-url-not-listed',
        path: '$.additionalInterfaces',
        message: `$.additionalInterfaces does not repeat the main interface (${main} at ${quote(card.url)})`,
        hint: `Add {"url": ${quote(card.url)}, "transport": ${quote(main)}}: the v0.3 spec says additionalInterfaces SHOULD include the main url, and clients that read only this list miss it otherwise.`,
      }),
    );
  }
  return problems;
}

/** The checks beyond the schema, for a card of the given version (a hybrid card is checked once per reading). */
export function cardRules({ card, version }: { card: JsonObject; version: CardReading }): CardProblem[] {
  return [
    ...(version === '1.0' ? v1InterfaceProblems(card) : []),
    ...(version === '0.3' ? v03InterfaceProblems(card) : []),
    ...skillProblems(card),
    ...mediaTypeProblems(card),
    ...securityProblems(card),
    ...agentVersionProblems(card),
  ];
}
