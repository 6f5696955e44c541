import { Link } from 'react-router';
import { usePageMeta } from '../../app/usePageMeta';
import { useAuth } from '../../auth/AuthProvider';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { PlusPlans } from './PlusPlans';
import './plus.css';

const PERKS = [
  { title: 'Two more themes', text: 'Sunrise, in warm dawn colours, and Garden, in olive and sage.' },
  { title: 'Gold buttons', text: 'A button style that shines.' },
  { title: 'Your own verse', text: 'Keep a verse you love on your page instead of the verse of the day.' },
  { title: 'The Plus badge', text: 'Shown beside your name on your page.' },
];

/** `/plus`: what Plus brings, the member's plan, and the plans (once billing exists). */
export function PlusPage() {
  usePageMeta({ title: 'Plus · Lampstand' });
  const { stripe } = useAuth();
  return (
    <section className="page plus" aria-labelledby="plus-title">
      <MemberNav />
      <PageHeading id="plus-title">Lampstand Plus</PageHeading>
      <p className="lead">
        {stripe ? 'You have Plus. Thank you for supporting Lampstand!' : 'You are on the free plan.'}
      </p>
      <ul className="perks">
        {PERKS.map((perk) => (
          <li key={perk.title}>
            <h2>{perk.title}</h2>
            <p>{perk.text}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="plans-title" className="plans-section">
        <h2 id="plans-title">Plans</h2>
        <PlusPlans />
      </section>
      <p>
        <Link to="/profile">Back to your page settings</Link>
      </p>
    </section>
  );
}
