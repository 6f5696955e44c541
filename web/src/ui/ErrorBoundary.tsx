import { Component, useEffect, useRef } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { isChunkLoadError, isReloadingForNewVersion, reloadForNewVersion } from '../lib/new-version';
import { PageLoading } from './PageLoading';

/** What a page that failed to render shows instead: a calm word and a way out. */
function PageFailed() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="page narrow" aria-labelledby="page-failed-title">
      <h1 id="page-failed-title" ref={heading} tabIndex={-1}>
        This page could not be shown
      </h1>
      <p className="lead">
        Something went wrong on our side, or a new version of Lampstand has just come out. Reloading the page usually
        helps.
      </p>
      <p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            window.location.reload();
          }}
        >
          Reload
        </button>
      </p>
    </section>
  );
}

interface Props {
  children: ReactNode;
  /** A new value (the path) clears the failure, so that the header's links still lead somewhere. */
  resetKey: string;
  /** Wraps the message, for pages that bring no frame of their own. */
  frame?: (message: ReactNode) => ReactNode;
}

interface State {
  error: unknown;
  reloading: boolean;
}

/**
 * Catches a page that fails to render or to load its code, so that the rest of the app stays. A
 * page whose code has gone (a deploy replaced it) reloads once by itself to fetch the new version.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, reloading: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (isReloadingForNewVersion() || (isChunkLoadError(error) && reloadForNewVersion())) {
      this.setState({ reloading: true });
      return;
    }
    console.error('A page failed to render', error, info.componentStack);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error !== null && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null, reloading: false });
    }
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    if (this.state.reloading) return <PageLoading />;
    const message = <PageFailed />;
    return this.props.frame ? this.props.frame(message) : message;
  }
}
