import { AlertDialog } from "./alert-dialog";
import { ChatHeader } from "./chat-header";
import { CommandMenu } from "./command-menu";
import { Composer } from "./composer";
import { InlinePanel } from "./inline-panel";
import { InvoiceForm } from "./invoice-form";
import { MessageList } from "./message-list";
import { MiniAppPanel } from "./mini-app";
import { PlaceTabs } from "./place-tabs";
import { ReplyKeyboard } from "./reply-keyboard";
import { CommandTap } from "./text";
import { Toasts } from "./toasts";
import { usePlayground } from "./use-playground";

/** The direction a Telegram client lays itself out in, from its user's language. */
const writingDirection = (language: string | undefined): "ltr" | "rtl" =>
  /^(fa|ar|he|ur)\b/i.test(language ?? "") ? "rtl" : "ltr";

export function App() {
  const page = usePlayground();
  if (!page) return <div class="loading">Loading the playground…</div>;
  const { state, userId, place, inGroup, miniApp, invoice, inline, notices, payments } = page;
  return (
    <div class="app">
      <ChatHeader
        state={state}
        inGroup={inGroup}
        connected={page.connected}
        userId={userId}
        onSwitchUser={page.switchUser}
        onRenew={inGroup ? undefined : page.renewSubscriptions}
      />
      <PlaceTabs state={state} userId={userId} place={place} onGo={page.goTo} />
      <CommandTap.Provider value={page.send}>
        <MessageList
          views={page.visible}
          botName={state.bot.first_name}
          viewerId={userId}
          inGroup={inGroup}
          place={place}
          stick={page.stick}
          actions={page.actions}
        />
      </CommandTap.Provider>
      <Toasts toasts={notices.toasts} />
      {miniApp ? (
        <MiniAppPanel
          url={miniApp.url}
          title={miniApp.title}
          user={userId}
          payments={payments}
          payLink={page.payLink}
          onClose={page.closeMiniApp}
          dir={writingDirection(state.users.find((u) => u.id === userId)?.language)}
        />
      ) : null}
      {invoice ? (
        <InvoiceForm
          slug={invoice.slug}
          details={invoice.details}
          payments={payments}
          payLink={page.payLink}
          onClosed={page.closeInvoice}
        />
      ) : null}
      {notices.alertText ? (
        <AlertDialog text={notices.alertText} onClose={() => notices.setAlertText(undefined)} />
      ) : null}
      {notices.error ? (
        <div class="error" data-testid="error">
          {notices.error}
        </div>
      ) : null}
      {page.commands ? <CommandMenu commands={page.commands} onPick={page.send} /> : null}
      {page.replyKeyboard ? <ReplyKeyboard rows={page.replyKeyboard} onPress={page.send} /> : null}
      {inline ? (
        <InlinePanel answer={inline.answer} onPick={page.pickInline} onButton={page.openBotWith} />
      ) : null}
      <Composer
        draft={page.draft}
        forceReply={page.forceReply}
        menuApp={page.menuApp}
        onSend={page.send}
        onCommands={page.toggleCommands}
        onMenuApp={page.openMenuApp}
      />
    </div>
  );
}
