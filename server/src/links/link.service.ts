import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { joinedKeyLookup, keyLookup } from '../db/key-lookup.js';
import { changingMemberRows } from '../db/member-rows.js';
import { rowUpdate } from '../db/row-writes.js';
import type { PageChanged } from '../profiles/page-changes.js';
import { noPageChanges } from '../profiles/page-changes.js';
import { UserRecord } from '../members/user.entity.js';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { requireOwnPage } from '../profiles/own-page.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import type { LinkPage } from '../rules/links.js';
import { isHighlightedNow, isShownNow } from '../rules/links.js';
import { canVisit } from '../rules/page-access.js';
import { iconFor } from './link-icons.js';
import { cleanLinkTitle, MAX_LINKS, normalizeLinkUrl } from './link-rules.js';
import { checkSchedule, parseLocalTime } from './link-schedule.js';
import { linkPageOf, requireAllowedLinkChange } from './link.policies.js';
import { LinkRecord } from './link.entity.js';
import type { LinkInput, UpdateLinkInput } from './link.types.js';
import { Link } from './link.types.js';

/**
 * The API's view of a link record: the owner's (every setting as chosen), or with `page` the
 * visitors' (no schedule, the highlight only while it applies).
 */
export function toLink(record: LinkRecord, page?: LinkPage): Link {
  return Object.assign(new Link(), {
    id: record.id,
    title: record.title,
    url: record.url,
    icon: iconFor(record.url),
    hidden: record.hidden,
    visibleFrom: page ? null : record.visibleFrom,
    visibleUntil: page ? null : record.visibleUntil,
    highlighted: page ? isHighlightedNow(record, page) : record.highlighted,
  });
}

/** A schedule time as the input gives it: undefined leaves it, an empty string removes it. */
function scheduleTime(value: string | null | undefined, field: string): string | null | undefined {
  if (value == null) return undefined;
  return value.trim() === '' ? null : parseLocalTime(value, field);
}

const noSuchLink = () => appError(ErrorCode.NOT_FOUND, 'There is no such link on your page.', { field: 'id' });

/** What `update` may change of a link. */
const CHANGEABLE = ['title', 'url', 'hidden', 'visibleFrom', 'visibleUntil', 'highlighted'] as const;

/** A member's links: adding, changing, hiding, ordering and removing them. */
export class LinkService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pageChanged: PageChanged = noPageChanges,
  ) {}

  /** Adds a link at the end of the page (at most `MAX_LINKS`). */
  add(actor: AuthUser, input: LinkInput): Promise<LinkRecord> {
    const title = cleanLinkTitle(input.title, 'input.title');
    const url = normalizeLinkUrl(input.url, 'input.url');
    return this.inOwnPage(actor, async (manager) => {
      const links = await manager.find(LinkRecord, { where: { uid: actor.id }, order: { position: 'ASC' } });
      if (links.length >= MAX_LINKS) {
        throw appError(ErrorCode.LIMIT_REACHED, `A page holds at most ${MAX_LINKS} links. Remove one to add another.`, {
          limit: MAX_LINKS,
        });
      }
      const last = links.at(-1);
      return manager.save(
        LinkRecord,
        Object.assign(new LinkRecord(), {
          id: randomUUID(),
          uid: actor.id,
          title,
          url,
          position: last ? last.position + 1 : 0,
          hidden: input.hidden ?? false,
          visibleFrom: null,
          visibleUntil: null,
          highlighted: false,
          createdAt: new Date(),
        }),
      );
    });
  }

  /**
   * Changes a link's title, address, visibility, schedule or highlight. Setting a schedule or the
   * highlight needs Plus; highlighting one link takes the highlight from the page's others.
   */
  update(actor: AuthUser, id: string, input: UpdateLinkInput): Promise<LinkRecord> {
    const title = input.title != null ? cleanLinkTitle(input.title, 'input.title') : undefined;
    const url = input.url != null ? normalizeLinkUrl(input.url, 'input.url') : undefined;
    const from = scheduleTime(input.visibleFrom, 'input.visibleFrom');
    const until = scheduleTime(input.visibleUntil, 'input.visibleUntil');
    return this.inOwnPage(actor, async (manager, owner) => {
      // By key, its SQL written once (the query builder of `findOneBy` was ~5% of an edit's CPU).
      const [found] = await keyLookup(this.dataSource, LinkRecord, 'id')([id], manager);
      const link = found?.uid === actor.id ? found : undefined;
      if (!link) throw noSuchLink();
      requireAllowedLinkChange(owner, { schedule: { from, until }, highlighted: input.highlighted });
      const schedule = checkSchedule({
        from: from === undefined ? link.visibleFrom : from,
        until: until === undefined ? link.visibleUntil : until,
      });
      if (title !== undefined) link.title = title;
      if (url !== undefined) link.url = url;
      if (input.hidden != null) link.hidden = input.hidden;
      link.visibleFrom = schedule.from;
      link.visibleUntil = schedule.until;
      if (input.highlighted === true && !link.highlighted) {
        await manager.update(LinkRecord, { uid: actor.id, highlighted: true }, { highlighted: false });
      }
      if (input.highlighted != null) link.highlighted = input.highlighted;
      // Every column a change may touch, in one statement written once: `save` read the row
      // again and ran the query builder to find what changed (~a fifth of an edit's CPU).
      await rowUpdate(this.dataSource, LinkRecord, { set: CHANGEABLE, where: ['id'] })(manager, link, link);
      return link;
    });
  }

  /** Removes a link; answers the links left, in order. */
  remove(actor: AuthUser, id: string): Promise<LinkRecord[]> {
    return this.inOwnPage(actor, async (manager) => {
      const removed = await manager.delete(LinkRecord, { id, uid: actor.id });
      if (!removed.affected) throw noSuchLink();
      return manager.find(LinkRecord, { where: { uid: actor.id }, order: { position: 'ASC' } });
    });
  }

  /** Puts the links in the order of `ids`, which must name each of the member's links once. */
  reorder(actor: AuthUser, ids: readonly string[]): Promise<LinkRecord[]> {
    return this.inOwnPage(actor, async (manager) => {
      const links = await manager.find(LinkRecord, { where: { uid: actor.id } });
      const byId = new Map(links.map((link) => [link.id, link]));
      const ordered = ids.map((id) => byId.get(id));
      if (new Set(ids).size !== ids.length || ids.length !== links.length || ordered.some((link) => !link)) {
        throw badUserInput('List each of your links exactly once, in the new order.', 'ids');
      }
      const moved = ordered.flatMap((link, position) =>
        link && link.position !== position ? [{ link, position }] : [],
      );
      for (const { link, position } of moved) {
        await manager.update(LinkRecord, { id: link.id }, { position });
        link.position = position;
      }
      return ordered.filter((link): link is LinkRecord => link !== undefined);
    });
  }

  /**
   * The link behind `/l/<id>` when a visitor may follow it: shown now (not hidden, and inside its
   * schedule while the owner has Plus) on a page that is active and public and whose owner is not
   * leaving; otherwise null.
   */
  async followable(id: string, now: Date = new Date()): Promise<LinkRecord | null> {
    // Key lookups, their SQL written once (`findOneBy` runs the query builder at every click).
    const [link] = await keyLookup(this.dataSource, LinkRecord, 'id')([id]);
    if (!link || link.hidden) return null;
    // The page with its owner in one statement, as a page read has them (profiles/profile.loaders.ts).
    const [found] = await joinedKeyLookup(this.dataSource, ProfileRecord, 'uid', {
      entity: UserRecord,
      on: ['uid', 'uid'],
    })([link.uid]);
    const [profile, owner] = found ?? [null, null];
    // The null checks repeat what the rule established, for the types.
    if (!canVisit({ profile, owner }, now).allowed || !profile || !owner) return null;
    return isShownNow(link, linkPageOf(owner, profile), now) ? link : null;
  }

  /** Runs `work` in a transaction once the caller's page is known to exist. */
  private async inOwnPage<T>(
    actor: AuthUser,
    work: (manager: EntityManager, owner: UserRecord) => Promise<T>,
  ): Promise<T> {
    // A change to this member's rows alone: other members' kept public answers stay.
    const result = await changingMemberRows([actor.id], () =>
      this.dataSource.transaction(async (manager) => {
        // Locked, so that concurrent changes to the page's links take turns.
        const { owner } = await requireOwnPage(manager, actor, { lock: true });
        return work(manager, owner);
      }),
    );
    this.pageChanged(actor.id);
    return result;
  }
}
