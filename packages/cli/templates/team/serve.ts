// One service of this team, as a deployment runs it: `node serve.ts <service>` (tickets, supervisor, …),
// its settings from the environment (REDIS_URL, SWITCHBOARD_SERVICE_KEY, SWITCHBOARD_TRUSTED_KEYS, …).
import { serveTeamService } from '@switchboard/service';
import team from './team.ts';

await serveTeamService({ team, service: process.argv[2] ?? '', env: process.env });
