/**
 * The platform's main of a team's service, for a service with no main of its own: loads the team
 * module `SWITCHBOARD_TEAM` names and serves its service `SWITCHBOARD_TEAM_SERVICE`
 * (`serveTeamService`). `switchboard dev --team` starts each such service with this file.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Team } from '@switchboard/team';
import { runServiceMain } from '../run-service-main.ts';
import { serveTeamService } from './serve-team-service.ts';

const module = process.env.SWITCHBOARD_TEAM?.trim() ?? '';
const service = process.env.SWITCHBOARD_TEAM_SERVICE?.trim() ?? '';
let team: Team | undefined;
await runServiceMain({
  service: service || 'service',
  start: async () => {
    if (!isAbsolute(module))
      throw new Error(
        `SWITCHBOARD_TEAM must be the absolute path of the team module (got ${JSON.stringify(module)})`,
      );
    const loaded = (await import(pathToFileURL(module).href)) as { default?: Team };
    if (!loaded.default?.supervisor || !Array.isArray(loaded.default.workers))
      throw new Error(`${module} is not a team module: its default export must be defineTeam({ … })`);
    team = loaded.default;
  },
});
if (team) await serveTeamService({ team, service, env: process.env });
