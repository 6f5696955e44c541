// How the app's writes reach SQLite: TypeORM's query builder with whole numbers bound
// (db/sqlite-parameters.ts), rows inserted and updated with SQL written once (db/row-writes.ts),
// and the reads a transaction makes of its own writes (db/sqlite-serial.ts).
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DataSource } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDataSource } from '../../server/src/db/data-source.js';
import { keyLookup } from '../../server/src/db/key-lookup.js';
import { rowInsert, rowUpdate, rowUpdateReturning } from '../../server/src/db/row-writes.js';
import { sqliteReadInTransaction } from '../../server/src/db/sqlite-serial.js';

// A Date kept as epoch milliseconds in a bigint column, as the app's timestamps are.
const epochMs = {
  to: (value: Date | null | undefined) => (value == null ? value : value.getTime()),
  from: (value: number | string | null) => (value === null ? null : new Date(Number(value))),
};

@Entity({ name: 'notes' })
class NoteRecord {
  @PrimaryColumn({ type: 'varchar' })
  id!: string;

  @Column({ name: 'seen_at', type: 'bigint', transformer: epochMs })
  seenAt!: Date;

  @Column({ type: 'integer' })
  count!: number;

  @Column({ type: 'varchar' })
  label!: string;

  @Column({ type: 'real' })
  score!: number;

  @Column({ type: 'simple-json', nullable: true })
  methods!: { method: string; timestamp: number }[] | null;

  @Column({ type: 'boolean', default: true })
  open!: boolean;
}

let dataSource: DataSource;
beforeEach(async () => {
  dataSource = buildDataSource({ type: 'sqlite', file: ':memory:' }, { entities: [NoteRecord] });
  await dataSource.initialize();
  await dataSource.synchronize();
});
afterEach(async () => {
  await dataSource.destroy();
});

const typesOf = (id: string) =>
  dataSource.query<Record<string, string>[]>(
    'SELECT typeof(seen_at) AS seen, typeof(count) AS count, typeof(label) AS label, typeof(score) AS score FROM notes WHERE id = ?',
    [id],
  );

describe('whole numbers in query builder statements on SQLite', () => {
  it('are bound, so the same write with other numbers is the same statement', () => {
    const update = (at: number, count: number) =>
      dataSource
        .createQueryBuilder()
        .update(NoteRecord)
        .set({ seenAt: new Date(at), count })
        .where('id = :id AND count < :limit', { id: 'a', limit: count + 1 })
        .getQueryAndParameters();
    const [firstSql, firstParameters] = update(1_795_600_000_000, 3);
    const [secondSql, secondParameters] = update(1_795_600_000_123, 4);
    expect(secondSql).toBe(firstSql);
    expect(firstSql).not.toMatch(/1795600000000|\b3\b/);
    expect(firstParameters).toEqual([1_795_600_000_000n, 3n, 'a', 4n]);
    expect(secondParameters).toEqual([1_795_600_000_123n, 4n, 'a', 5n]);
  });

  it('are stored and compared as the integers they are; fractions and text keep their types', async () => {
    const at = new Date(1_795_600_000_000);
    await dataSource.manager.insert(NoteRecord, { id: 'a', seenAt: at, count: 7, label: '12', score: 2 });
    await dataSource.manager.insert(NoteRecord, { id: 'b', seenAt: at, count: -2, label: 'x', score: 0.25 });
    expect(await typesOf('a')).toEqual([{ seen: 'integer', count: 'integer', label: 'text', score: 'real' }]);
    await dataSource.manager.update(NoteRecord, { id: 'a' }, { count: 8, seenAt: new Date(at.getTime() + 1) });
    const found = await dataSource.manager.findBy(NoteRecord, { count: 8 });
    expect(found).toMatchObject([{ id: 'a', seenAt: new Date(at.getTime() + 1), count: 8, label: '12', score: 2 }]);
    const fraction = await dataSource
      .createQueryBuilder(NoteRecord, 'note')
      .where('note.score > :least', { least: 0.2 })
      .andWhere('note.count < :most', { most: 0 })
      .getMany();
    expect(fraction.map((note) => note.id)).toEqual(['b']);
    expect(await typesOf('b')).toEqual([{ seen: 'integer', count: 'integer', label: 'text', score: 'real' }]);
  });
});

describe('rowInsert', () => {
  it('writes the row manager.insert would, converting values the same way', async () => {
    const values = {
      seenAt: new Date(1_795_600_000_123),
      count: 3,
      label: 'a',
      score: 0.5,
      methods: [{ method: 'password', timestamp: 1_795_600_000 }],
      open: false,
    };
    await dataSource.manager.insert(NoteRecord, { id: 'by-typeorm', ...values });
    const insert = rowInsert(dataSource, NoteRecord);
    await insert(dataSource.manager, dataSource.manager.create(NoteRecord, { id: 'fast', ...values }));
    const rows = await dataSource.query<Record<string, unknown>[]>('SELECT * FROM notes ORDER BY id');
    expect(rows).toHaveLength(2);
    expect({ ...rows[0], id: 'fast' }).toEqual(rows[1]);
    expect(await dataSource.manager.findOneByOrFail(NoteRecord, { id: 'fast' })).toEqual({ id: 'fast', ...values });
    expect(await typesOf('fast')).toEqual([{ seen: 'integer', count: 'integer', label: 'text', score: 'real' }]);
  });

  it('leaves the columns a row does not set to their defaults, and writes inside the transaction it is given', async () => {
    await dataSource
      .transaction(async (manager) => {
        const note = manager.create(NoteRecord, { id: 'a', seenAt: new Date(5), count: 1, label: 'b', score: 1 });
        await rowInsert(dataSource, NoteRecord)(manager, note);
        expect(await manager.findOneByOrFail(NoteRecord, { id: 'a' })).toMatchObject({ open: true, methods: null });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await dataSource.manager.countBy(NoteRecord, {})).toBe(0);
  });
});

describe('rowUpdate', () => {
  it('sets what manager.update would on the rows matching every condition, and says how many it changed', async () => {
    const at = new Date(1_795_600_000_000);
    await dataSource.manager.insert(NoteRecord, { id: 'a', seenAt: at, count: 1, label: 'old', score: 1 });
    await dataSource.manager.insert(NoteRecord, { id: 'b', seenAt: at, count: 1, label: 'old', score: 1 });
    const relabel = rowUpdate(dataSource, NoteRecord, { set: ['label', 'seenAt'], where: ['id', 'label'] });
    const later = new Date(at.getTime() + 60_000);
    const changed = await dataSource.transaction(async (manager) => [
      await relabel(manager, { label: 'new', seenAt: later }, { id: 'a', label: 'old' }),
      await relabel(manager, { label: 'newer', seenAt: later }, { id: 'b', label: 'not what it is' }),
    ]);
    expect(changed).toEqual([1, 0]);
    const rows = await dataSource.manager.find(NoteRecord, { order: { id: 'ASC' } });
    expect(rows.map(({ id, label, seenAt }) => ({ id, label, seenAt }))).toEqual([
      { id: 'a', label: 'new', seenAt: later },
      { id: 'b', label: 'old', seenAt: at },
    ]);
    expect(await typesOf('a')).toEqual([{ seen: 'integer', count: 'integer', label: 'text', score: 'real' }]);
  });

  it('refuses to run outside a transaction, or with a value of its shape missing', async () => {
    const relabel = rowUpdate(dataSource, NoteRecord, { set: ['label'], where: ['id'] });
    await expect(relabel(dataSource.manager, { label: 'x' }, { id: 'a' })).rejects.toThrow(/inside a transaction/);
    await expect(dataSource.transaction((manager) => relabel(manager, {}, { id: 'a' }))).rejects.toThrow(
      /needs every value/,
    );
  });
});

describe('rowUpdateReturning', () => {
  it('answers the rows it changed as they are after it, converted as a read would', async () => {
    const at = new Date(1_795_600_000_000);
    await dataSource.manager.insert(NoteRecord, { id: 'a', seenAt: at, count: 3, label: 'old', score: 1.5 });
    const relabel = rowUpdateReturning(dataSource, NoteRecord, { set: ['label', 'seenAt'], where: ['id', 'label'] });
    const later = new Date(at.getTime() + 60_000);
    const [changed, unchanged] = await dataSource.transaction(async (manager) => [
      await relabel(manager, { label: 'new', seenAt: later }, { id: 'a', label: 'old' }),
      await relabel(manager, { label: 'newer', seenAt: later }, { id: 'a', label: 'not what it is' }),
    ]);
    expect(unchanged).toEqual([]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toBeInstanceOf(NoteRecord);
    expect(changed[0]).toEqual(await dataSource.manager.findOneBy(NoteRecord, { id: 'a' }));
    expect(changed[0]).toMatchObject({ label: 'new', seenAt: later, count: 3, open: true, methods: null });
  });
});

describe('reads inside a transaction, at once on its connection', () => {
  const byId = 'SELECT id, label FROM notes WHERE id = ?';

  it('see what the transaction wrote, and run only inside the transaction that owns the connection', async () => {
    const readInTransaction = sqliteReadInTransaction(dataSource);
    if (!readInTransaction) throw new Error('a serialised SQLite data source has a reader');
    expect(readInTransaction(byId, ['a'])).toBeUndefined();

    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const transaction = dataSource.transaction(async (manager) => {
      await rowInsert(dataSource, NoteRecord)(
        manager,
        manager.create(NoteRecord, { id: 'a', seenAt: new Date(7), count: 1, label: 'mine', score: 1 }),
      );
      const [note] = await keyLookup(dataSource, NoteRecord, 'id')(['a'], manager);
      inserted();
      await finished;
      return { direct: readInTransaction(byId, ['a']), note };
    });
    await written;
    // Another request, while the transaction is open: the row may never be committed.
    expect(readInTransaction(byId, ['a'])).toBeUndefined();
    finish();
    const { direct, note } = await transaction;
    expect(direct).toEqual([{ id: 'a', label: 'mine' }]);
    expect(note).toMatchObject({ id: 'a', label: 'mine', seenAt: new Date(7), open: true, methods: null });
    expect(readInTransaction(byId, ['a'])).toBeUndefined();
  });
});
