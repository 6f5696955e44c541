import { NavLink } from 'react-router';
import { appConfig } from '../lib/config';
import { useAuth } from '../session/AuthProvider';
import './forms.css';

/** The member's screens, at the top of each of them; Plus where it is on sale or already theirs. */
export function MemberNav() {
  const { stripe } = useAuth();
  return (
    <nav aria-label="Settings" className="member-nav">
      <NavLink to="/profile" className="member-nav-link">
        Page
      </NavLink>
      <NavLink to="/stats" className="member-nav-link">
        Stats
      </NavLink>
      <NavLink to="/prayer-requests" className="member-nav-link" aria-label="Prayer requests">
        Prayer
      </NavLink>
      <NavLink to="/saved" className="member-nav-link">
        Verses
      </NavLink>
      <NavLink to="/account" className="member-nav-link">
        Account
      </NavLink>
      {(appConfig().billing || stripe) && (
        <NavLink to="/plus" className="member-nav-link">
          Plus
        </NavLink>
      )}
    </nav>
  );
}
