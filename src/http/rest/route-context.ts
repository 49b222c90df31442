import type { AuthenticatedEnv } from "../middleware.js";
import type { Links } from "../../transport/links.js";
import type { Params } from "./params.js";
import type { Route } from "./routes.js";

/** What the dotted routes' middleware leave on the Hono context: the route, its caller and its parameters. */
export type RestEnv = AuthenticatedEnv & { Variables: { route: Route; operation: string; params: Params; links: Links } };
