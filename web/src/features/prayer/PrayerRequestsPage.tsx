import { useEffect } from 'react';
import { describeError } from '../../lib/errors';
import { failureWords } from '../../lib/error-words';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { PrayerRequestCard } from './PrayerRequestCard';
import { PrayerSettingsForm } from './PrayerSettingsForm';
import {
  useMarkPrayerRequestsReadMutation,
  usePrayerRequestReceivedSubscription,
  usePrayerRequestsPageQuery,
} from './prayer-requests.generated';

/**
 * `/prayer-requests`: what visitors asked the member to pray for, newest first, and the button's
 * settings. A new request appears as it arrives (`prayerRequestReceived`), and the inbox is read
 * afresh when the window comes back into focus, for any that came while the socket was reconnecting.
 */
export function PrayerRequestsPage() {
  usePageMeta({ title: 'Prayer requests · Lampstand' });
  const { stripe } = useAuth();
  const query = usePrayerRequestsPageQuery({ fetchPolicy: 'network-only' });
  const [markRead] = useMarkPrayerRequestsReadMutation();
  const { refetch } = query;
  const unread = query.data?.unreadPrayerRequests ?? 0;
  usePrayerRequestReceivedSubscription({
    // Sent before the first answer, a request is in it already.
    skip: query.dataState !== 'complete',
    onData: () => void refetch(),
  });

  useEffect(() => {
    const refresh = () => void refetch();
    window.addEventListener('focus', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
    };
  }, [refetch]);

  // The count says what is new since the last visit; having shown it, the inbox is read.
  useEffect(() => {
    if (unread > 0) void markRead();
  }, [unread, markRead]);

  const data = query.dataState === 'complete' ? query.data : null;
  return (
    <section className="page prayer-requests" aria-labelledby="prayer-title">
      <MemberNav />
      <PageHeading id="prayer-title">Prayer requests</PageHeading>
      <p className="lead">
        Visitors to your page can ask you to pray for them. Only you see their requests, and you never see their email
        address: your replies are sent through Lampstand.
      </p>
      {data ? (
        <>
          <p role="status" data-unread={unread}>
            {unread === 0 ? 'No new requests.' : unread === 1 ? '1 new request.' : `${String(unread)} new requests.`}
          </p>
          {data.prayerRequests.length === 0 ? (
            <p>No prayer requests yet.</p>
          ) : (
            <ul className="prayer-request-list">
              {data.prayerRequests.map((request) => (
                <PrayerRequestCard key={request.id} request={request} onGone={() => void refetch()} />
              ))}
            </ul>
          )}
          <section aria-labelledby="prayer-settings-title">
            <h2 id="prayer-settings-title">Settings</h2>
            <PrayerSettingsForm settings={data.prayerSettings} plus={stripe} />
          </section>
        </>
      ) : query.error ? (
        <div role="alert">
          <p>We couldn’t load your prayer requests. {failureWords(describeError(query.error))}</p>
          <button type="button" className="button" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <p role="status">Loading your prayer requests…</p>
      )}
    </section>
  );
}
