import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { appConfig } from '../../lib/config';
import { ChoiceGroup } from './ChoiceGroup';
import type { Draft } from './draft';
import type { LookOption } from './looks';
import { BUTTONS, LAYOUTS, THEMES, TRANSLATIONS, offeredOptions } from './looks';

type LookKey = 'theme' | 'layout' | 'button' | 'translation';

type LookGroups = {
  [K in LookKey]: {
    key: K;
    legend: string;
    options: LookOption<Draft[K]>[];
    /** A small picture of each choice (decorative: the label names it). */
    swatch: (value: Draft[K]) => ReactNode;
  };
};
type LookGroup<K extends LookKey = LookKey> = LookGroups[K];

/** The parts of the look, in the order the editor shows them. */
const LOOK_GROUPS: LookGroup[] = [
  {
    key: 'theme',
    legend: 'Theme',
    options: THEMES,
    swatch: (value) => <span className={`swatch swatch--${value}`} />,
  },
  {
    key: 'layout',
    legend: 'Layout',
    options: LAYOUTS,
    swatch: (value) => <span className={`swatch swatch--layout-${value}`} />,
  },
  {
    key: 'button',
    legend: 'Buttons',
    options: BUTTONS,
    swatch: (value) => <span className={`swatch swatch--${value}`} />,
  },
  {
    key: 'translation',
    legend: 'Bible translation',
    options: TRANSLATIONS,
    swatch: (value) => <span className="swatch swatch--translation">{value}</span>,
  },
];

/** What the editor says under a part of the look when the choice in it needs Plus the member lacks. */
function PlusNote<T extends string>({
  options,
  value,
  saved,
  plus,
}: {
  options: LookOption<T>[];
  value: T;
  saved: T;
  plus: boolean;
}) {
  const chosen = options.find((option) => option.value === value);
  if (plus || !chosen?.plus) return null;
  // Only a choice saved while Plus was on sale can be here: it is kept, and visitors see the free look.
  if (!appConfig().billing) return <>{chosen.label} came with Plus: your page shows the free look.</>;
  if (value === saved) {
    return (
      <>
        {chosen.label} comes with Plus. Your choice is kept, but visitors see the free look until you{' '}
        <Link to="/plus">get Plus again</Link>.
      </>
    );
  }
  return (
    <>
      {chosen.label} comes with Plus. Try it in the preview; to keep it, <Link to="/plus">upgrade to Plus</Link>.
    </>
  );
}

function LookChoice<K extends LookKey>({
  group,
  value,
  saved,
  plus,
  onChange,
}: {
  group: LookGroup<K>;
  value: Draft[K];
  saved: Draft[K];
  plus: boolean;
  onChange: (value: Draft[K]) => void;
}) {
  const options = offeredOptions(group.options, { plus, billing: appConfig().billing, saved });
  const hasPlus = options.some((option) => option.plus);
  return (
    <ChoiceGroup
      name={group.key}
      legend={group.legend}
      options={options}
      value={value}
      onChange={onChange}
      note={hasPlus ? <PlusNote options={options} value={value} saved={saved} plus={plus} /> : undefined}
      swatch={group.swatch}
    />
  );
}

/** Theme, layout, buttons and translation: one set of choices each, from one list. */
export function LookChoices({
  draft,
  saved,
  plus,
  onChange,
}: {
  draft: Draft;
  saved: Draft;
  plus: boolean;
  onChange: <K extends LookKey>(key: K, value: Draft[K]) => void;
}) {
  return (
    <>
      {LOOK_GROUPS.map(<K extends LookKey>(group: LookGroup<K>) => (
        <LookChoice
          key={group.key}
          group={group}
          value={draft[group.key]}
          saved={saved[group.key]}
          plus={plus}
          onChange={(value) => {
            onChange(group.key, value);
          }}
        />
      ))}
    </>
  );
}
