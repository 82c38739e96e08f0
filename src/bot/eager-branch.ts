import { Composer, type Context, type Middleware, type MiddlewareFn } from "grammy";

type Side<C extends Context> = Middleware<C> | Middleware<C>[];

/**
 * grammY's `branch`, which `filter`, `command`, `on`, `callbackQuery` and the rest stand
 * on, picks its side through `lazy`: every update reaching a filter, taken or not, makes
 * a Composer, an array and two promises there. An update passes dozens of the bot's
 * ~130 filters before one takes it, and under load that was grammY's largest allocation
 * on the webhook path. This `branch` composes both sides once and calls one per update.
 * It keeps grammY's behaviour: a side that is a composer is still read when it runs, so
 * handlers added to it later take part, and an async predicate is awaited.
 *
 * It replaces the method on grammY's Composer itself (grammY builds its inner composers
 * with its own class, so a subclass would miss them); importing this module is enough.
 */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

function eagerBranch<C extends Context>(
  this: Composer<C>,
  predicate: (ctx: C) => boolean | Promise<boolean>,
  trueMiddleware: Side<C>,
  falseMiddleware: Side<C>,
): Composer<C> {
  const yes: MiddlewareFn<C> = new Composer<C>(...[trueMiddleware].flat()).middleware();
  const no: MiddlewareFn<C> = new Composer<C>(...[falseMiddleware].flat()).middleware();
  return this.use((ctx, next) => {
    // as grammY's `await predicate(ctx)`: a plugin's predicate may answer any truthy value, or a thenable
    const chosen: unknown = predicate(ctx);
    if (isThenable(chosen)) return Promise.resolve(chosen).then((ok) => (ok ? yes : no)(ctx, next));
    return (chosen ? yes : no)(ctx, next);
  });
}

Composer.prototype.branch = eagerBranch;
