/**
 * `npm run start:prod` (`node dist/scripts/start/main.js`): the supervisor (supervisor.ts), from the build.
 * `npm start` and `npm run dev` reach the same supervisor through scripts/start.js, which runs it
 * from the sources transpiled for that start.
 */
import { runSupervisor } from "./supervisor.js";

await runSupervisor();
