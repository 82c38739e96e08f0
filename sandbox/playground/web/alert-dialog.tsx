/** An alert the reader dismisses with OK: the bot's answer shown as an alert, or a refused payment. */
export function AlertDialog({ text, onClose }: { text: string; onClose(): void }) {
  return (
    <div class="alert-backdrop">
      <div class="alert" role="alertdialog" data-testid="alert">
        <p>{text}</p>
        <button type="button" onClick={onClose}>
          OK
        </button>
      </div>
    </div>
  );
}
