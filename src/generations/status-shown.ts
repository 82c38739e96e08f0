/**
 * How `statusShown` records what a chat's status message shows: its text, with a
 * plain mark (Postgres text cannot hold a NUL) when the result's buttons are on
 * it. The reconciler reads the marks: a delivered result whose record carries
 * neither still lacks its buttons.
 */
export const buttonsMark = "\n[buttons]";

/** Telegram refused a delivered result's Done for good: its buttons are not tried again. */
export const buttonsGivenUp = "[buttons given up]";
