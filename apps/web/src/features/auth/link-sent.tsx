import { MailCheck } from 'lucide-react';
import { Button } from '../../components/ui/button';

/** What a sign-in form shows once its link is mailed: where it went, and a way to use another address. */
export const LinkSent = ({ email, onAnother }: { email: string; onAnother: () => void }) => (
  <div className="space-y-4 text-sm">
    <div className="flex items-start gap-3 rounded-lg bg-surface-2 p-4">
      <MailCheck className="mt-0.5 shrink-0 text-primary" size={20} aria-hidden="true" />
      <p>
        We sent a sign-in link to <strong>{email}</strong>. Open it and press <strong>Sign in</strong> to continue. The
        link works once.
      </p>
    </div>
    <Button variant="secondary" className="w-full" onClick={onAnother}>
      Use another email
    </Button>
  </div>
);
