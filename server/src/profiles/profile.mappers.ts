import type { UserRecord } from '../members/user.entity.js';
import type { ProfileRecord } from './profile.entity.js';
import { isPlus } from '../members/plus.js';
import type { Appearance } from './profile.types.js';
import { Profile, PublicProfile } from './profile.types.js';

/** The owner's view of a profile record. */
export function toProfile(record: ProfileRecord): Profile {
  return Object.assign(new Profile(), {
    uid: record.uid,
    username: record.username,
    name: record.name,
    bio: record.bio,
    theme: record.theme,
    layout: record.layout,
    button: record.button,
    isActive: record.isActive,
    isPublic: record.isPublic,
    welcome: record.welcome,
    versePinned: record.versePinned,
    translation: record.translation,
    joined: record.joined,
    timeZone: record.timeZone,
  });
}

/** The visitors' view of a profile record: only public fields, rendered appearance. */
export function toPublicProfile(record: ProfileRecord, owner: UserRecord, appearance: Appearance): PublicProfile {
  return Object.assign(new PublicProfile(), {
    uid: record.uid,
    timeZone: record.timeZone,
    username: record.username,
    name: record.name,
    bio: record.bio,
    appearance,
    plus: isPlus(owner),
    versePinned: record.versePinned && isPlus(owner),
    translation: record.translation,
    joined: record.joined,
  });
}
