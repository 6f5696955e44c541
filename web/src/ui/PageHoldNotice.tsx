import { usePageHoldNoticeQuery } from './page-hold.generated';
import './page-hold.css';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/**
 * Tells a member that an operator hid their page (or suspended the account) and why: the
 * settings they can change do not bring it back. Shows nothing while loading, when nothing holds
 * the page, or when the question fails (the screen around it reports its own failures).
 */
export function PageHoldNotice() {
  const { data, loading, error } = usePageHoldNoticeQuery({ fetchPolicy: 'cache-and-network' });
  if (loading && !data) return null;
  if (error && !data) return null;
  const hold = data?.me?.profile?.hold;
  if (!hold) return null;
  const until = hold.bannedUntil ? new Date(hold.bannedUntil) : null;
  return (
    <div className="page-hold" role="alert">
      <h2>Your page is hidden by the Lampstand team</h2>
      <p>
        Visitors see “Page not found” at your address. <span className="page-hold-reason">Reason: {hold.reason}</span>
      </p>
      {until && until.getFullYear() < 2100 && <p>Your account is suspended until {dateFormat.format(until)}.</p>}
      <p>Your own settings cannot change this. If you think it is a mistake, reply to our email or contact support.</p>
    </div>
  );
}
