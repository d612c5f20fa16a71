import { NotFoundBack } from "@/components/errors/not-found-back";

/** An absent or hidden place: HTTP 404 and a link back to the jobs (places have no list of their own). */
export default function NotFound() {
  return <NotFoundBack list="jobs" />;
}
