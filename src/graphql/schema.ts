import { builder } from "./builder.js";
import "./scalars.js";
import "./enums.js";
import "./errors.js";
import "./types/merchant-configuration.js";
import "./types/request.js";
import "./types/transaction.js";
import "./types/activity.js";
import "./types/lists.js";
import "./types/webhook-event.js";
import "./types/event.js";
import "./types/webhook-endpoint.js";
import "./types/console.js";
import "./types/api-key.js";
import "./types/stats.js";
import "./types/branding.js";

builder.queryType({ description: "Reads. Every field needs an X-Api-Key header." });
builder.mutationType({ description: "Writes. Results are the data or a typed Error." });
builder.subscriptionType({ description: "Live updates, over server-sent events." });

export const schema = builder.toSchema({ sortSchema: true });
