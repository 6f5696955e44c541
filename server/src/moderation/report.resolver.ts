import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import type { ReportService } from './report.service.js';
import { ReportPageInput } from './report.types.js';

@Resolver()
export class ReportResolver {
  constructor(private readonly reports: ReportService) {}

  @Public()
  @Mutation(() => Boolean, {
    description:
      'Reports a page to the operators (no account needed; a few per hour per address). True once it is queued.',
  })
  async reportPage(
    @Arg('input', () => ReportPageInput, { description: 'The page, the reason and an optional note.' })
    input: ReportPageInput,
    @Ctx() { clientIp, loaders }: Context,
  ): Promise<boolean> {
    await this.reports.report(input, clientIp, loaders);
    return true;
  }
}
