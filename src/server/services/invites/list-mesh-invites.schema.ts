import { z } from "zod";
import { ZMeshIdInput } from "../meshes/schemas";

export const ZMeshInvitesInput = ZMeshIdInput;

export type TMeshInvitesInput = z.output<typeof ZMeshInvitesInput>;
