import { formatMinor, type TBillingOverview } from '@switchboard/core';
import { longDate } from './billing-overview-api';

const STATUS_TEXT: Record<string, string> = {
  paid: 'Paid',
  open: 'Due',
  uncollectible: 'Uncollectible',
  void: 'Void',
  refunded: 'Refunded',
};

/** Invoices from the payment provider (Stripe's, with their page and PDF, or the sandbox's records). */
export const InvoicesTable = ({ overview }: { overview: TBillingOverview }) => {
  if (overview.invoicesError)
    return (
      <p role="alert" className="text-sm text-danger">
        {overview.invoicesError}
      </p>
    );
  if (overview.invoices.length === 0) return <p className="text-sm text-muted">No invoices yet.</p>;
  return (
    <div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="relative overflow-x-auto" tabIndex={0} aria-label="Invoices">
        <table className="w-full text-sm">
          <caption className="sr-only">Invoices, newest first</caption>
          <thead>
            <tr className="text-left text-muted">
              <th scope="col" className="py-2 pr-4 font-medium">
                Date
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Description
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Amount
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Status
              </th>
              <th scope="col" className="py-2 font-medium">
                Document
              </th>
            </tr>
          </thead>
          <tbody>
            {overview.invoices.map((invoice) => (
              <tr key={invoice.id} className="border-t border-border align-top">
                <td className="py-2 pr-4 whitespace-nowrap">{longDate(invoice.createdAt)}</td>
                <td className="py-2 pr-4">{invoice.description}</td>
                <td className="py-2 pr-4 text-right whitespace-nowrap">
                  {formatMinor(invoice.amount, invoice.currency)}
                </td>
                <td className="py-2 pr-4">{STATUS_TEXT[invoice.status] ?? invoice.status}</td>
                <td className="py-2 whitespace-nowrap">
                  {invoice.hostedUrl ? (
                    <a
                      className="font-medium underline decoration-primary decoration-2"
                      href={invoice.hostedUrl}
                      target="_blank"
                      rel="noreferrer"
                    >
                      View<span className="sr-only"> invoice of {longDate(invoice.createdAt)}</span>
                    </a>
                  ) : null}
                  {invoice.pdfUrl ? (
                    <a
                      className="ml-3 font-medium underline decoration-primary decoration-2"
                      href={invoice.pdfUrl}
                      target="_blank"
                      rel="noreferrer"
                    >
                      PDF<span className="sr-only"> of the invoice of {longDate(invoice.createdAt)}</span>
                    </a>
                  ) : null}
                  {!invoice.hostedUrl && !invoice.pdfUrl ? (
                    <span className="text-muted">{overview.provider === 'sandbox' ? 'Sandbox record' : '—'}</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p className="mt-2 text-xs text-muted">
        The latest {overview.invoices.length <= 1 ? 'invoice' : 'invoices'}; older ones are in the billing portal.
      </p>
    </div>
  );
};
