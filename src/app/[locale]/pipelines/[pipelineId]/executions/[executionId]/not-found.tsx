import { NotFoundBack } from "@/components/errors/not-found-back";

/** An absent run: HTTP 404 and a link back to the pipeline's history. */
export default function NotFound() {
  return <NotFoundBack list="executions" pattern="/pipelines/[pipelineId]/executions" />;
}
