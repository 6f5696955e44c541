import type { ReactNode } from 'react';
import { PageHeading } from '../../ui/PageHeading';

/** An emailed link that did not work: why (`message`), then the way on (`children`). */
export function LinkFailed({ message, children }: { message: ReactNode; children: ReactNode }) {
  return (
    <section className="page narrow" aria-labelledby="link-failed-title">
      <PageHeading id="link-failed-title">This link did not work</PageHeading>
      <div className="form-alert" role="alert">
        {message}
      </div>
      {children}
    </section>
  );
}
