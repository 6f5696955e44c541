/** Opens the form for the code an email carries beside its link, for mail read on another device. */
export function HaveCodeButton({ onOpen }: { onOpen: () => void }) {
  return (
    <button type="button" className="button button--quiet form-submit" onClick={onOpen}>
      I have a code from an email
    </button>
  );
}
