import { NotFoundBack } from "@/components/errors/not-found-back";

/** An absent or hidden object of this kind: HTTP 404 and a link back to its list. */
export default function NotFound() {
  return <NotFoundBack list="adminMeshes" />;
}
