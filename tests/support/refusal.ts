import { GraphQLError } from 'graphql';

/** The message and extensions of the coded error `run` throws; fails when it throws none. */
export function refusal(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (error) {
    if (error instanceof GraphQLError) return { message: error.message, ...error.extensions };
    throw error;
  }
  throw new Error('expected a refusal');
}
