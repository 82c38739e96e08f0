import type { Opening } from "../../bot/conversations/open-conversation";
import type { Conv } from "../../bot/conversations/screen";
import type { GenerationParamsInput } from "../../domain/generations/params";
import { askPrompt } from "./ask-prompt";
import { confirmRequest } from "./confirm-request";
import type { ConversationDeps } from "./open-request";
import { type PanelSpec, runPanel } from "./panel";

export interface PromptedRequest<O> {
  prompt: string;
  options: O;
}

/**
 * A description, then the options panel until Confirm or Cancel; Back from the
 * panel asks for the description again and keeps the options chosen so far.
 */
export async function promptThenPanel<O>(
  conversation: Conv,
  deps: ConversationDeps,
  opening: Pick<Opening, "screen" | "t" | "who">,
  askKey: string,
  exampleKey: string,
  spec: PanelSpec<PromptedRequest<O>>,
  start: { prompt: string | undefined; options: O },
  toParams: (request: PromptedRequest<O>) => GenerationParamsInput,
): Promise<void> {
  const { screen, t, who } = opening;
  let { prompt, options } = start;
  for (;;) {
    if (prompt === undefined) {
      const asked = await askPrompt(screen, t(askKey), { back: false, example: t(exampleKey) });
      if (asked.kind !== "value") return screen.close(t("cv-cancelled"));
      prompt = asked.value;
    }
    const outcome = await runPanel(screen, spec, { prompt, options }, (s, shown) =>
      confirmRequest(conversation, screen, deps, who, toParams(s), shown),
    );
    if (outcome.kind === "done") return;
    if (outcome.kind === "cancel") return screen.close(t("cv-cancelled"));
    options = outcome.state.options;
    prompt = undefined;
  }
}
