import { indexed } from '../json/card-entries.ts';
import { isObject, type JsonObject, member } from '../json/card-json.ts';
import { plain, quote } from '../json/describe-value.ts';
import { sameJson } from '../json/json-equal.ts';
import { type CardChange, change } from './card-change.ts';

const FLAGS = ['streaming', 'pushNotifications', 'extendedAgentCard'] as const;

/**
 * Flags turned off and extensions removed are breaking, and so is an extension that becomes
 * required (clients must now understand it); flags turned on and optional extensions are not.
 */
export function diffCapabilities(before: JsonObject, after: JsonObject): CardChange[] {
  const was = isObject(before.capabilities) ? before.capabilities : {};
  const now = isObject(after.capabilities) ? after.capabilities : {};
  const changes = FLAGS.flatMap((flag) => {
    const path = `$.capabilities.${flag}`;
    if (was[flag] === true && now[flag] !== true)
      return [change('capability-changed', path, `${flag} turned off`, true)];
    if (was[flag] !== true && now[flag] === true)
      return [change('capability-changed', path, `${flag} turned on`)];
    return [];
  });
  const extensions = (capabilities: JsonObject) =>
    indexed(capabilities.extensions).map(([extension, index]) => ({
      extension,
      uri: plain(extension.uri),
      path: `$.capabilities.extensions[${index}]`,
    }));
  const [had, has] = [extensions(was), extensions(now)];
  for (const { uri, path } of had.filter(({ uri }) => !has.some((entry) => entry.uri === uri))) {
    changes.push(change('capability-changed', path, `extension ${quote(uri)} removed`, true));
  }
  for (const { extension, uri, path } of has) {
    const old = had.find((entry) => entry.uri === uri)?.extension;
    const required = extension.required === true;
    if (!old)
      changes.push(
        change(
          'capability-changed',
          path,
          `extension ${quote(uri)} added${required ? ' as required' : ''}`,
          required,
        ),
      );
    else if (required && old.required !== true)
      changes.push(change('capability-changed', path, `extension ${quote(uri)} now required`, true));
    else if (!sameJson(old, extension))
      changes.push(change('capability-changed', path, `extension ${quote(uri)} changed`));
  }
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (key === 'extensions' || FLAGS.some((flag) => flag === key) || sameJson(was[key], now[key])) continue;
    changes.push(change('capability-changed', member('$.capabilities', key), `${key} changed`));
  }
  return changes;
}
