-- AlterTable
ALTER TABLE "members" ADD COLUMN     "groups" TEXT[] DEFAULT ARRAY[]::TEXT[];
