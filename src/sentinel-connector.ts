import { SentinelConnector, type SentinelConnectionOptions } from "ioredis";

type ConnectorEvents = Parameters<SentinelConnector["connect"]>[0];

/**
 * ioredis's connector for a Sentinel group, with one race closed. With `failoverDetector`, a
 * connection listens for the sentinels' +switch-master and drops its stream when they announce a
 * new master. The listening outlives a stream that closed by itself (a killed master): if the
 * announcement comes while the client asks the sentinels where to reconnect, ioredis ends that
 * connect and gives the client up for good (status "end": every later command is refused, and the
 * process never reaches Redis again). So each connect first stops the listening of the stream
 * before it; the stream it opens listens anew.
 */
export class SentinelReconnector extends SentinelConnector {
  // ioredis hands a connector it is given the client's options, typed as unknown.
  constructor(options: unknown) {
    super(options as SentinelConnectionOptions);
  }

  override connect(events: ConnectorEvents) {
    // A private field of ioredis's connector (6.x): the detector of the last stream.
    const own = this as unknown as { failoverDetector: { cleanup(): void } | null };
    own.failoverDetector?.cleanup();
    own.failoverDetector = null;
    return super.connect(events);
  }
}
