import { NavLink } from 'react-router';
import './forms.css';

/** The member's screens, at the top of each of them. */
export function MemberNav() {
  return (
    <nav aria-label="Settings" className="member-nav">
      <NavLink to="/profile" className="member-nav-link">
        Page
      </NavLink>
      <NavLink to="/account" className="member-nav-link">
        Account
      </NavLink>
      <NavLink to="/plus" className="member-nav-link">
        Plus
      </NavLink>
    </nav>
  );
}
