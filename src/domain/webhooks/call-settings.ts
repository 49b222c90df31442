import { deliveryLeaseMs } from "../deliveries/states.js";

/** Where an endpoint may point: WEBHOOK_ALLOW_PRIVATE_NETWORKS, as for a request's notifyUrl. */
export interface DestinationRules {
  allowPrivateNetworks: boolean;
}

/** What calls on endpoints read of the settings: the address rules, and how long a test event is waited for. */
export interface WebhookCallSettings extends DestinationRules {
  /** The worker's delivery lease: WEBHOOK_TIMEOUT and the time it takes to sign and record. */
  testEventWaitMs: number;
}

/** The settings of calls on endpoints, from the environment (the API's, or the CLI's). */
export function webhookCallSettings(env: {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean;
  WEBHOOK_TIMEOUT: number;
}): WebhookCallSettings {
  return { allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, testEventWaitMs: deliveryLeaseMs(env.WEBHOOK_TIMEOUT) };
}
