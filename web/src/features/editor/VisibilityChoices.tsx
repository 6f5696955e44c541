/** Whether the page is public and switched on, and what visitors get as a result. */
export function VisibilityChoices({
  isPublic,
  isActive,
  onChange,
}: {
  isPublic: boolean;
  isActive: boolean;
  onChange: (key: 'isPublic' | 'isActive', value: boolean) => void;
}) {
  return (
    <fieldset className="choices">
      <legend>Visibility</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={isPublic}
          onChange={(event) => {
            onChange('isPublic', event.target.checked);
          }}
        />
        <span>Public: anyone with the address can see my page</span>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={isActive}
          onChange={(event) => {
            onChange('isActive', event.target.checked);
          }}
        />
        <span>Active: my page is switched on</span>
      </label>
      <p className="choices-note">
        {!isPublic || !isActive
          ? 'Your page is hidden: visitors see “Page not found”. Only you can see it here.'
          : 'Visitors can see your page.'}
      </p>
    </fieldset>
  );
}
