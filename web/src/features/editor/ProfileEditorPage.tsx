import { useEffect, useRef, useState } from 'react';
import type { RefObject, SubmitEvent } from 'react';
import { Link } from 'react-router';
import { DEFAULT_TIME_ZONE } from '@rules/dates';
import { linksShownNow } from '@rules/links';
import { MAX_NAME_LENGTH, normalUsername } from '@rules/names';
import { formBanner } from '../../lib/errors';
import { appConfig } from '../../lib/config';
import { useFormAction } from '../../lib/use-form-action';
import { useLeaveWarning } from '../../lib/use-leave-warning';
import { PageLoading } from '../../ui/PageLoading';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import type { ProfileEditorQuery } from './profile-editor.generated';
import { useProfileEditorQuery } from './profile-editor.generated';
import { FormAlert, FormStatus, SubmitButton, TextField } from '../../ui/Field';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { PageHoldNotice } from '../../ui/PageHoldNotice';
import { pageNameProblem, usernameProblem } from '../../lib/validation';
import { visitorTimeZone } from '../../lib/time-zone';
import { BioField } from './BioField';
import type { Draft } from './draft';
import { changesOf, draftOf, hasChanges } from './draft';
import { LookChoices } from './LookChoices';
import { PhotoPicker } from './PhotoPicker';
import { PinnedVerse } from './PinnedVerse';
import { LinksEditor } from './LinksEditor';
import { ProfilePreview } from './ProfilePreview';
import { ShareOnWebsite } from './ShareOnWebsite';
import { useOwnLinks } from './use-own-links';
import { usePhoto } from './use-photo';
import { usePreviewVerse } from './use-preview-verse';
import { useChangeUsername } from './use-change-username';
import { useUpdateProfile } from './use-update-profile';
import { VisibilityChoices } from './VisibilityChoices';
// The page's stylesheets, in the order the cascade follows.
import './editor.css';
import './look-choices.css';
import './pinned-verse.css';
import './links-editor.css';
import './photo-picker.css';

type EditorProfile = NonNullable<ProfileEditorQuery['me']>['profile'];

/** The editor's fields the API may name in `extensions.field`. */
const FIELDS = ['name', 'username', 'bio'] as const;

/** Where the preview takes the settings' place instead of sitting beside them (editor.css). */
const NARROW = '(max-width: 55.99rem)';

interface Failure {
  message: string;
  plusRequired: boolean;
}

/**
 * On narrow screens the preview takes the settings' place while shown (editor.css). It opens at its
 * top, under the bar with "Save changes" and "Back to editing"; going back returns to where the
 * member was in the settings.
 */
function usePreviewToggle(grid: RefObject<HTMLElement | null>) {
  const [shown, setShown] = useState(false);
  const editingAt = useRef<number | null>(null);
  useEffect(() => {
    if (!window.matchMedia(NARROW).matches) return;
    if (shown) {
      grid.current?.scrollIntoView({ block: 'start' });
    } else if (editingAt.current !== null) {
      window.scrollTo({ top: editingAt.current });
      editingAt.current = null;
    }
  }, [grid, shown]);
  const toggle = () => {
    if (!shown) editingAt.current = window.scrollY;
    setShown(!shown);
  };
  return [shown, toggle] as const;
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
  const previewGrid = useRef<HTMLDivElement>(null);
  const [previewing, togglePreview] = usePreviewToggle(previewGrid);
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
        const username = normalUsername(draft.username);
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
  useLeaveWarning(hasChanges(saved, draft) && !action.busy);
  return (
    <section className="page editor" aria-labelledby="editor-title">
      <MemberNav />
      <PageHeading id="editor-title">Your page</PageHeading>
      <PageHoldNotice />
      <div ref={previewGrid} className={previewing ? 'editor-grid editor-grid--previewing' : 'editor-grid'}>
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
                  Your page’s address: <span className="nowrap">/@{normalUsername(draft.username) || '…'}</span>
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
            <LookChoices draft={draft} saved={saved} plus={plus} onChange={set} />
            <VisibilityChoices isPublic={draft.isPublic} isActive={draft.isActive} onChange={set} />
            {/* Sticky at the bottom of the screen (at the top over the preview); the page keeps room for it (editor.css). */}
            <div className="editor-savebar">
              <SubmitButton busy={action.busy} busyLabel="Saving…">
                Save changes
              </SubmitButton>
              <button
                type="button"
                className="button button--quiet editor-preview-toggle"
                aria-expanded={previewing}
                aria-controls="editor-preview"
                onClick={togglePreview}
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
          <ShareOnWebsite username={saved.username} name={saved.name} visible={saved.isPublic && saved.isActive} />
        </div>
        <section id="editor-preview" className="editor-preview" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview</h2>
          <ProfilePreview
            look={draft}
            plus={plus}
            links={linksShownNow(ownLinks.links ?? [], { plus, timeZone: ownLinks.timeZone ?? DEFAULT_TIME_ZONE })}
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
