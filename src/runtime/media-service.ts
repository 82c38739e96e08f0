import type { Simulator } from "../../sandbox/simulator/server";
import type { Config } from "../platform/config/config";
import type { Clock } from "../platform/lib/clock";
import type { Logger } from "../platform/lib/logger";
import { createMediaClient, type MediaClient } from "../platform/media-service/client";
import type { RuntimePolicy } from "./settings";
import { phase, type StopPhases } from "./stop-phases";

/** The media webhook path the operator registers with the service. */
export function mediaWebhookPath(config: Config): string {
  return `/webhooks/media/${config.media.webhookSecret}`;
}

/**
 * The configured media service, or in sandbox mode the built-in simulator
 * (loaded only then, so production never loads it).
 */
export async function connectMediaService(
  config: Config,
  deps: { clock: Clock; logger: Logger; policy: RuntimePolicy },
  stops: StopPhases,
): Promise<{ media: MediaClient; simulator: Simulator | undefined }> {
  if (!config.media.useSimulator) {
    const media = createMediaClient({
      baseUrl: config.media.baseUrl!,
      apiKey: config.media.apiKey!,
      timeoutMs: deps.policy.mediaTimeoutMs,
      logger: deps.logger,
    });
    return { media, simulator: undefined };
  }
  const { startSimulator } = await import("../../sandbox/simulator/server");
  const simulator = await startSimulator({
    apiKey: "sandbox-key",
    clock: deps.clock,
    webhook: { url: `${config.publicUrl}${mediaWebhookPath(config)}` },
    logger: deps.logger,
  });
  stops.onStop(phase.services, () => simulator.close());
  // sandbox mode is chosen (SANDBOX=1, or nothing configured): said once, not warned about
  deps.logger.info({ url: simulator.url }, "sandbox: using the built-in media service simulator");
  return { media: createMediaClient({ baseUrl: simulator.url, apiKey: simulator.apiKey }), simulator };
}
