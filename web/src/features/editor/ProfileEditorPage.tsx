import { useRef, useState } from 'react';
import type { SubmitEvent } from 'react';
import { Link } from 'react-router';
import { MAX_NAME_LENGTH } from '@rules/signup';

/** As the server counts it (server/src/profiles/names.ts). */
const MAX_BIO_LENGTH = 160;
import { formBanner } from '../../lib/errors';
import { appConfig } from '../../lib/config';
import { useFormAction } from '../../lib/useFormAction';
import { useLeaveWarning } from '../../lib/useLeaveWarning';
import { PageLoading } from '../../ui/PageLoading';
import { usePageMeta } from '../../lib/usePageMeta';
import { useAuth } from '../../session/AuthProvider';
import type { ButtonStyle, Layout, Theme, Translation, UpdateProfileInput } from '../../gql/schema-types';
import type { ProfileEditorQuery } from './profile-editor.generated';
import { useProfileEditorQuery } from './profile-editor.generated';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { PageHoldNotice } from '../../ui/PageHoldNotice';
import { pageNameProblem, usernameProblem } from '../../lib/validation';
import { visitorTimeZone } from '../../lib/timeZone';
import { ChoiceGroup } from './ChoiceGroup';
import { PhotoPicker } from './PhotoPicker';
import { PinnedVerse } from './PinnedVerse';
import type { LookOption } from './looks';
import { BUTTONS, LAYOUTS, THEMES, TRANSLATIONS } from './looks';
import { LinksEditor } from './LinksEditor';
import { linksShownNow } from './previewLinks';
import { ProfilePreview } from './ProfilePreview';
import { useOwnLinks } from './useOwnLinks';
import { usePhoto } from './usePhoto';
import { usePreviewVerse } from './usePreviewVerse';
import { useChangeUsername } from './useChangeUsername';
import { useUpdateProfile } from './useUpdateProfile';
import './editor.css';

interface Draft {
  name: string;
  bio: string;
  username: string;
  theme: Theme;
  layout: Layout;
  button: ButtonStyle;
  translation: Translation;
  isPublic: boolean;
  isActive: boolean;
}

type EditorProfile = NonNullable<ProfileEditorQuery['me']>['profile'];

function draftOf(profile: Draft): Draft {
  const { name, bio, username, theme, layout, button, translation, isPublic, isActive } = profile;
  return { name, bio, username, theme, layout, button, translation, isPublic, isActive };
}

/** The profile fields that differ between what is saved and the draft. */
function changesOf(saved: Draft, draft: Draft): UpdateProfileInput {
  const input: UpdateProfileInput = {};
  if (draft.name.trim() !== saved.name) input.name = draft.name.trim();
  if (draft.bio.trim() !== saved.bio) input.bio = draft.bio.trim();
  if (draft.theme !== saved.theme) input.theme = draft.theme;
  if (draft.layout !== saved.layout) input.layout = draft.layout;
  if (draft.button !== saved.button) input.button = draft.button;
  if (draft.translation !== saved.translation) input.translation = draft.translation;
  if (draft.isPublic !== saved.isPublic) input.isPublic = draft.isPublic;
  if (draft.isActive !== saved.isActive) input.isActive = draft.isActive;
  return input;
}

/** The editor's fields the API may name in `extensions.field`. */
const FIELDS = ['name', 'username', 'bio'] as const;

interface Failure {
  message: string;
  plusRequired: boolean;
}

function PlusNote<T extends string>({
  options,
  value,
  saved,
  plus,
}: {
  options: LookOption<T>[];
  value: T;
  saved: T;
  plus: boolean;
}) {
  const chosen = options.find((option) => option.value === value);
  if (plus || !chosen?.plus) return null;
  if (!appConfig().billing)
    return <>{chosen.label} comes with Plus, which is not offered here: visitors see the free look.</>;
  // A saved Plus choice outlived the member's Plus: it is kept, and the page shows the free look.
  if (value === saved) {
    return (
      <>
        {chosen.label} comes with Plus. Your choice is kept, but visitors see the free look until you{' '}
        <Link to="/plus">get Plus again</Link>.
      </>
    );
  }
  return (
    <>
      {chosen.label} comes with Plus. Try it in the preview; to keep it, <Link to="/plus">upgrade to Plus</Link>.
    </>
  );
}

/** The bio: a few lines under the name, with how many characters are left. */
function BioField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const left = MAX_BIO_LENGTH - Array.from(value.trim()).length;
  return (
    <div className="field">
      <label htmlFor="editor-bio">
        Bio<span className="field-optional"> (optional)</span>
      </label>
      <p id="editor-bio-hint" className="field-hint">
        A few words under your name. {left >= 0 ? `${left} characters left.` : `${-left} characters too many.`}
      </p>
      <textarea
        id="editor-bio"
        rows={3}
        value={value}
        aria-invalid={error || left < 0 ? true : undefined}
        aria-describedby={error ? 'editor-bio-hint editor-bio-error' : 'editor-bio-hint'}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      {error && (
        <p id="editor-bio-error" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** `/profile`: name, address, look and visibility of the member's page, with a live preview. */
export function ProfileEditorPage() {
  usePageMeta({ title: 'Your page · Lampstand' });
  const { stripe } = useAuth();
  // From the network, not only the cache: the draft must start from what is saved now (another
  // device may have changed it), and a verse cached before midnight is yesterday's.
  const editor = useProfileEditorQuery({
    variables: { timeZone: visitorTimeZone() },
    fetchPolicy: 'cache-and-network',
  });
  const [answered, setAnswered] = useState(false);
  const profile = editor.dataState === 'complete' ? (editor.data.me?.profile ?? null) : null;
  if (!answered && !editor.loading && profile) setAnswered(true);
  if (answered && profile) {
    return <Editor profile={profile} plus={stripe} />;
  }
  if (editor.error && !editor.loading) {
    return (
      <section className="page narrow" aria-labelledby="editor-error-title">
        <PageHeading id="editor-error-title">We couldn’t load your page settings</PageHeading>
        <div role="alert">
          <p>Please check your connection and try again.</p>
        </div>
        <button type="button" onClick={() => void editor.refetch()}>
          Try again
        </button>
      </section>
    );
  }
  return <PageLoading />;
}

function Editor({ profile, plus }: { profile: EditorProfile; plus: boolean }) {
  // The query follows the cache, so `saved` is what the server holds now; the draft starts from it.
  const saved = draftOf(profile);
  const [draft, setDraft] = useState<Draft>(saved);
  const [errors, setErrors] = useState<{ name?: string; username?: string; bio?: string }>({});
  // On narrow screens the preview takes the settings' place while shown (editor.css).
  const [previewing, setPreviewing] = useState(false);
  const ownLinks = useOwnLinks();
  const photo = usePhoto();
  const action = useFormAction<Failure>();
  const form = useRef<HTMLFormElement>(null);
  const [updateProfile] = useUpdateProfile();
  const [changeUsername] = useChangeUsername();
  const verse = profile.verse;
  const previewVerse = usePreviewVerse(verse, draft.translation);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    action.setStatus(null);
    // A field's error goes as it is mended; the banner pointing at it goes with the last one.
    if (key in errors) setErrors((found) => ({ ...found, [key]: undefined }));
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const found = {
      name: draft.name.trim() === saved.name ? undefined : (pageNameProblem(draft.name) ?? undefined),
      username: draft.username === saved.username ? undefined : (usernameProblem(draft.username) ?? undefined),
    };
    setErrors(found);
    if (found.name || found.username) {
      form.current?.querySelector<HTMLInputElement>(found.name ? '#editor-name' : '#editor-username')?.focus();
      return;
    }
    await action.run(
      async () => {
        const username = draft.username.trim().toLowerCase();
        if (username !== saved.username) await changeUsername({ variables: { username } });
        const input = changesOf(saved, draft);
        if (Object.keys(input).length > 0) await updateProfile(input);
        setDraft((current) => ({ ...current, name: current.name.trim(), username }));
        return 'Your page is saved.';
      },
      {
        onFailure: (problem) => {
          const field = problem.code === 'USERNAME_TAKEN' ? 'username' : FIELDS.find((name) => name === problem.field);
          if (!field) return { message: problem.message, plusRequired: problem.code === 'PLUS_REQUIRED' };
          setErrors({ [field]: problem.message });
          form.current?.querySelector<HTMLElement>(`#editor-${field}`)?.focus();
          return null;
        },
      },
    );
  };

  const banner = formBanner(action.alert, errors);
  const unsaved =
    draft.username.trim().toLowerCase() !== saved.username || Object.keys(changesOf(saved, draft)).length > 0;
  useLeaveWarning(unsaved && !action.busy);
  const hidden = !draft.isPublic || !draft.isActive;
  return (
    <section className="page editor" aria-labelledby="editor-title">
      <MemberNav />
      <PageHeading id="editor-title">Your page</PageHeading>
      <PageHoldNotice />
      <div className={previewing ? 'editor-grid editor-grid--previewing' : 'editor-grid'}>
        <div className="editor-controls">
          <PhotoPicker own={photo} name={draft.name || saved.name} />
          <form ref={form} className="form editor-form" noValidate onSubmit={(event) => void submit(event)}>
            <FormAlert>
              {typeof banner === 'string'
                ? banner
                : banner && (
                    <>
                      {banner.message}
                      {banner.plusRequired && appConfig().billing && (
                        <>
                          {' '}
                          <Link to="/plus">See Plus</Link>
                        </>
                      )}
                    </>
                  )}
            </FormAlert>
            <TextField
              id="editor-name"
              label="Name"
              hint="Shown at the top of your page."
              autoComplete="name"
              maxLength={MAX_NAME_LENGTH}
              value={draft.name}
              onChange={(event) => {
                set('name', event.target.value);
              }}
              error={errors.name}
            />
            <BioField
              value={draft.bio}
              onChange={(value) => {
                set('bio', value);
              }}
              error={errors.bio}
            />
            <TextField
              id="editor-username"
              label="Username"
              hint={
                <>
                  Your page’s address: <span className="nowrap">/@{draft.username.trim().toLowerCase() || '…'}</span>
                </>
              }
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={30}
              value={draft.username}
              onChange={(event) => {
                set('username', event.target.value);
              }}
              error={errors.username}
            />
            <ChoiceGroup
              name="theme"
              legend="Theme"
              options={THEMES}
              value={draft.theme}
              onChange={(value) => {
                set('theme', value);
              }}
              note={<PlusNote options={THEMES} value={draft.theme} saved={saved.theme} plus={plus} />}
              swatch={(value) => <span className={`swatch swatch--${value}`} />}
            />
            <ChoiceGroup
              name="layout"
              legend="Layout"
              options={LAYOUTS}
              value={draft.layout}
              onChange={(value) => {
                set('layout', value);
              }}
              swatch={(value) => <span className={`swatch swatch--layout-${value}`} />}
            />
            <ChoiceGroup
              name="button"
              legend="Buttons"
              options={BUTTONS}
              value={draft.button}
              onChange={(value) => {
                set('button', value);
              }}
              note={<PlusNote options={BUTTONS} value={draft.button} saved={saved.button} plus={plus} />}
              swatch={(value) => <span className={`swatch swatch--${value}`} />}
            />
            <ChoiceGroup
              name="translation"
              legend="Bible translation"
              options={TRANSLATIONS}
              value={draft.translation}
              onChange={(value) => {
                set('translation', value);
              }}
              swatch={(value) => <span className="swatch swatch--translation">{value}</span>}
            />
            <fieldset className="choices">
              <legend>Visibility</legend>
              <label className="check">
                <input
                  type="checkbox"
                  checked={draft.isPublic}
                  onChange={(event) => {
                    set('isPublic', event.target.checked);
                  }}
                />
                <span>Public: anyone with the address can see my page</span>
              </label>
              <label className="check">
                <input
                  type="checkbox"
                  checked={draft.isActive}
                  onChange={(event) => {
                    set('isActive', event.target.checked);
                  }}
                />
                <span>Active: my page is switched on</span>
              </label>
              <p className="choices-note">
                {hidden
                  ? 'Your page is hidden: visitors see “Page not found”. Only you can see it here.'
                  : 'Visitors can see your page.'}
              </p>
            </fieldset>
            {/* Sticky at the bottom of the screen; the page keeps room for it (editor.css). */}
            <div className="editor-savebar">
              <SubmitButton busy={action.busy} busyLabel="Saving…">
                Save changes
              </SubmitButton>
              <button
                type="button"
                className="button button--quiet editor-preview-toggle"
                aria-expanded={previewing}
                aria-controls="editor-preview"
                onClick={() => {
                  setPreviewing((shown) => !shown);
                }}
              >
                {previewing ? 'Back to editing' : 'Preview'}
              </button>
              <FormStatus>
                {action.status && (
                  <>
                    {action.status} <Link to={`/@${saved.username}`}>View your page</Link>
                  </>
                )}
              </FormStatus>
            </div>
          </form>
          <LinksEditor own={ownLinks} />
          {/* A Plus-only choice: offered only where Plus is on sale, kept for members who have it. */}
          {(plus || appConfig().billing) && <PinnedVerse pinned={profile.versePinned} plus={plus} verse={verse} />}
        </div>
        <section id="editor-preview" className="editor-preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview</h2>
          <ProfilePreview
            look={draft}
            plus={plus}
            links={linksShownNow(ownLinks.links ?? [], { plus, timeZone: ownLinks.timeZone })}
            versePinned={profile.versePinned && plus}
            joined={profile.joined}
            verse={previewVerse}
            photoUrl={photo.photoUrl}
          />
        </section>
      </div>
    </section>
  );
}
