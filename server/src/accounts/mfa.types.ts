import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: "Two-factor sign-in (an authenticator app's 6-digit codes) for the signed-in member." })
export class MfaStatus {
  @Field(() => Boolean, { description: 'True when two-factor sign-in is on: signing in asks for a code.' })
  enabled!: boolean;

  @Field(() => Boolean, {
    description:
      'True when this session passed the second factor (`aal2`). While false with `enabled` on, account ' +
      'changes answer `MFA_REQUIRED`: call `verifyMfa` first.',
  })
  verified!: boolean;
}

@ObjectType({
  description:
    'A new authenticator-app setup: scan `qrCodeSvg` (or type `secret`), then confirm a code with `verifyMfa`. ' +
    'Shown once; the secret is never readable again.',
})
export class MfaSetup {
  @Field(() => ID, { description: 'The factor being set up.' })
  factorId!: string;

  @Field(() => String, { description: 'The base32 secret, for apps that cannot scan a code.' })
  secret!: string;

  @Field(() => String, { description: 'The `otpauth://totp/…` URI the QR code holds.' })
  uri!: string;

  @Field(() => String, { description: 'The URI as an SVG QR code (an `<svg>` document).' })
  qrCodeSvg!: string;
}
