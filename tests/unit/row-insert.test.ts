import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DataSource } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDataSource } from '../../server/src/db/data-source.js';
import { rowInsert } from '../../server/src/db/row-insert.js';

const epochMs = {
  to: (value: Date | null | undefined) => (value == null ? value : value.getTime()),
  from: (value: number | string | null) => (value === null ? null : new Date(Number(value))),
};

@Entity({ name: 'visits' })
class VisitRecord {
  @PrimaryColumn({ type: 'varchar' })
  id!: string;

  @Column({ type: 'simple-json' })
  methods!: { method: string; timestamp: number }[];

  @Column({ type: 'boolean', default: true })
  open!: boolean;

  @Column({ type: 'varchar', nullable: true })
  note!: string | null;

  @Column({ name: 'seen_at', type: 'bigint', transformer: epochMs })
  seenAt!: Date;
}

let dataSource: DataSource;
beforeEach(async () => {
  dataSource = buildDataSource({ type: 'sqlite', file: ':memory:' }, { entities: [VisitRecord] });
  await dataSource.initialize();
  await dataSource.synchronize();
});
afterEach(async () => {
  await dataSource.destroy();
});

describe('rowInsert', () => {
  it('writes the row manager.insert would, converting values the same way', async () => {
    const values = {
      methods: [{ method: 'password', timestamp: 1_795_600_000 }],
      open: false,
      note: null,
      seenAt: new Date(1_795_600_000_123),
    };
    await dataSource.manager.insert(VisitRecord, { id: 'by-typeorm', ...values });
    await rowInsert(dataSource, VisitRecord)(
      dataSource.manager,
      dataSource.manager.create(VisitRecord, { id: 'fast', ...values }),
    );
    const rows = await dataSource.query<Record<string, unknown>[]>('SELECT * FROM visits ORDER BY id');
    expect(rows).toHaveLength(2);
    expect({ ...rows[0], id: 'fast' }).toEqual(rows[1]);
    expect(await dataSource.manager.findOneByOrFail(VisitRecord, { id: 'fast' })).toEqual({ id: 'fast', ...values });
  });

  it('leaves the columns a row does not set to their defaults, and writes inside the transaction it is given', async () => {
    await dataSource
      .transaction(async (manager) => {
        const visit = manager.create(VisitRecord, { id: 'a', methods: [], seenAt: new Date(5) });
        await rowInsert(dataSource, VisitRecord)(manager, visit);
        expect(await manager.findOneByOrFail(VisitRecord, { id: 'a' })).toMatchObject({ open: true, note: null });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await dataSource.manager.countBy(VisitRecord, {})).toBe(0);
  });
});
