import { fromV03 } from '../convert/from-v03.ts';
import { indexed } from '../json/card-entries.ts';
import { type JsonObject, member } from '../json/card-json.ts';
import { plain, quote } from '../json/describe-value.ts';
import { isBlank, sameJson } from '../json/json-equal.ts';
import { type CardChange, type CardDiff, change } from './card-change.ts';
import { diffCapabilities } from './diff-capabilities.ts';
import { diffRequirements, diffSchemes } from './diff-security.ts';
import { diffSkills, modesChange } from './diff-skills.ts';

function diffInterfaces(before: JsonObject, after: JsonObject): CardChange[] {
  const list = (card: JsonObject) =>
    indexed(card.supportedInterfaces).map(([entry, index]) => {
      const [binding, url, version, tenant] = [
        entry.protocolBinding,
        entry.url,
        entry.protocolVersion,
        entry.tenant ?? '',
      ];
      return {
        key: [binding, url, version, tenant].map(plain).join('\n'),
        endpoint: `${plain(binding)} ${plain(url)}`,
        label: `${plain(binding)} at ${plain(url)} (protocol ${plain(version)}${tenant ? `, tenant ${plain(tenant)}` : ''})`,
        path: `$.supportedInterfaces[${index}]`,
      };
    });
  const [was, now] = [list(before), list(after)];
  const changes = [
    ...was
      .filter(({ key }) => !now.some((entry) => entry.key === key))
      .map(({ endpoint, label, path }) =>
        change(
          'interface-removed',
          path,
          now.some((entry) => entry.endpoint === endpoint)
            ? `${label} no longer offered`
            : `${label} removed`,
          true,
        ),
      ),
    ...now
      .filter(({ key }) => !was.some((entry) => entry.key === key))
      .map(({ label, path }) => change('interface-added', path, `${label} added`)),
  ];
  const [first, next] = [was[0], now[0]];
  if (first && next && first.key !== next.key) {
    changes.push(
      change(
        'field-changed',
        '$.supportedInterfaces[0]',
        `preferred interface is now ${next.label} (was ${first.label})`,
      ),
    );
  }
  return changes;
}

const STRUCTURED = new Set([
  'supportedInterfaces',
  'skills',
  'capabilities',
  'securitySchemes',
  'securityRequirements',
]);

function diffFields(before: JsonObject, after: JsonObject): CardChange[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((key) => {
    const [was, now] = [before[key], after[key]];
    const path = member('$', key);
    if (STRUCTURED.has(key) || sameJson(was, now)) return [];
    if (key === 'defaultInputModes' || key === 'defaultOutputModes')
      return modesChange('field-changed', path, key, was, now);
    const description =
      typeof was === 'string' && typeof now === 'string'
        ? `${key} changed from ${quote(was)} to ${quote(now)}`
        : `${key} ${isBlank(was) ? 'added' : isBlank(now) ? 'removed' : 'changed'}`;
    return [change('field-changed', path, description)];
  });
}

const order = (a: CardChange, b: CardChange) =>
  a.path < b.path
    ? -1
    : a.path > b.path
      ? 1
      : a.kind < b.kind
        ? -1
        : a.kind > b.kind
          ? 1
          : a.description < b.description
            ? -1
            : a.description > b.description
              ? 1
              : 0;

/**
 * The semantic differences between two Agent Cards of any versions: both are read in their v1.0
 * form first (with {@link fromV03}), so a v0.3 card and its v1.0 conversion have no differences.
 * A change is breaking when a client that worked with `before` may fail with `after`: a skill,
 * interface, extension or security scheme removed, a capability turned off, a media type dropped,
 * a security scheme changed, or security requirements new or stricter. Added skills and
 * interfaces, loosened security and changed names, descriptions or examples are not breaking.
 *
 * @example
 * const { breaking, changes } = diffCards(publishedCard, nextCard);
 * if (breaking) throw new Error(changes.filter((c) => c.breaking).map((c) => c.description).join('; '));
 */
export function diffCards(before: JsonObject, after: JsonObject): CardDiff {
  const [was, now] = [fromV03(before).card, fromV03(after).card];
  const changes = [
    ...diffInterfaces(was, now),
    ...diffSkills(was, now),
    ...diffCapabilities(was, now),
    ...diffSchemes(was, now),
    ...diffRequirements(was.securityRequirements, now.securityRequirements, '$.securityRequirements'),
    ...diffFields(was, now),
  ].sort(order);
  return { changes, breaking: changes.some((entry) => entry.breaking) };
}
