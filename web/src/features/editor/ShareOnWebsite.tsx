import { useId, useState } from 'react';
import type { EmbedTheme, EmbedTranslation } from '@rules/embeds';
import {
  PAGE_EMBED_SIZE,
  pageEmbedSnippet,
  pageEmbedUrl,
  VERSE_EMBED_SIZE,
  verseEmbedSnippet,
  verseEmbedUrl,
} from '@rules/embeds';
import './share-on-website.css';

type CopyResult = 'copied' | 'failed' | null;

/** One snippet: the code to paste, a button that copies it, and what it shows. */
function Snippet({
  title,
  code,
  preview,
  size,
}: {
  title: string;
  code: string;
  preview: string;
  size: { width: number; height: number };
}) {
  const id = useId();
  const [result, setResult] = useState<CopyResult>(null);
  // Loaded when asked for: the editor opens without fetching two more pages.
  const [previewing, setPreviewing] = useState(false);
  return (
    <div className="embed-snippet">
      <h3 id={`${id}-title`}>{title}</h3>
      <label className="visually-hidden" htmlFor={`${id}-code`}>
        {`Snippet: ${title}`}
      </label>
      <textarea
        id={`${id}-code`}
        className="embed-snippet-code"
        readOnly
        rows={4}
        value={code}
        onFocus={(event) => {
          event.currentTarget.select();
        }}
      />
      <span className="embed-snippet-copy">
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            navigator.clipboard.writeText(code).then(
              () => {
                setResult('copied');
              },
              () => {
                setResult('failed');
              },
            );
          }}
        >
          Copy snippet
        </button>
        <button
          type="button"
          className="button button--quiet button--small"
          aria-expanded={previewing}
          aria-controls={`${id}-preview`}
          onClick={() => {
            setPreviewing(!previewing);
          }}
        >
          {previewing ? 'Hide preview' : 'Show preview'}
        </button>
        <span role="status" className="embed-snippet-status">
          {result === 'copied' && 'Snippet copied.'}
          {result === 'failed' && 'Select the snippet to copy it.'}
        </span>
      </span>
      <div id={`${id}-preview`}>
        {/* The same frame the snippet makes, so what is seen here is what the website will show. */}
        {previewing && (
          <iframe
            className="embed-snippet-preview"
            src={preview}
            title={`Preview: ${title}`}
            width={size.width}
            height={size.height}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
          />
        )}
      </div>
    </div>
  );
}

/**
 * "Share on your website": the two snippets (the member's page, the verse of the day) a church's
 * or a member's own website can paste, with their previews.
 */
export function ShareOnWebsite({
  username,
  name,
  visible,
}: {
  username: string;
  name: string;
  /** Whether visitors can see the page now: the page's snippet shows nothing until they can. */
  visible: boolean;
}) {
  const site = window.location.origin;
  const [theme, setTheme] = useState<EmbedTheme>('light');
  const [translation, setTranslation] = useState<EmbedTranslation>('kjv');
  return (
    <section className="share-on-website" aria-labelledby="share-on-website-title">
      <h2 id="share-on-website-title">Share on your website</h2>
      <p className="share-on-website-lead">
        Show your page or the verse of the day on your church’s website or your own. Copy a snippet and paste it where
        the website lets you add HTML.
      </p>
      <div className="share-on-website-options">
        <label>
          Colours{' '}
          <select
            value={theme}
            onChange={(event) => {
              setTheme(event.target.value === 'dark' ? 'dark' : 'light');
            }}
          >
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label>
          Bible translation for the verse{' '}
          <select
            value={translation}
            onChange={(event) => {
              setTranslation(event.target.value === 'web' ? 'web' : 'kjv');
            }}
          >
            <option value="kjv">King James Version</option>
            <option value="web">World English Bible</option>
          </select>
        </label>
      </div>
      {!visible && (
        <p className="choices-note">
          Your page is hidden now: the website will show it once your page is public and active.
        </p>
      )}
      <Snippet
        title="Compact page"
        code={pageEmbedSnippet(site, { username, name }, { theme })}
        preview={pageEmbedUrl(site, username, theme)}
        size={PAGE_EMBED_SIZE}
      />
      <Snippet
        title="Verse of the day"
        code={verseEmbedSnippet(site, { theme, translation })}
        preview={verseEmbedUrl(site, { theme, translation })}
        size={VERSE_EMBED_SIZE}
      />
    </section>
  );
}
