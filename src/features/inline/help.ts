import type { HelpSection } from "../../bot/features/help";

/** Inline mode's part of /help: how to make a picture from any chat with @bot. */
export const inlineHelp: HelpSection = ({ t, botUsername }) => t("help-inline", { bot: `@${botUsername}` });
