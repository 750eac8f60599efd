/* pcl_abi.h: what pclc and libpclrt must agree on, defined once in common/
 * and included by both (the one header of the interface the compiler reads;
 * it is installed with the runtime's headers).  Generated C spells out the
 * names these lists give (PCL_RES_CUSTOM, PCL_TY_INT, PCL_GEN_FOR_OBJECT)
 * and stores the step flags as numbers in its rows; libpclrt defines its
 * enumerations from the same lists, so the two cannot drift apart.
 *
 * PCL_GEN_ABI numbers the interface between generated C and libpclrt
 * (pcl_gen.h): it changes whenever that interface changes, and a program
 * generated for another number fails to compile, link or start. */
#ifndef PCL_ABI_H
#define PCL_ABI_H

#define PCL_GEN_ABI 4

/* What a registration creates (pcl_resource_kind, PCL_RES_<name>):
 * a custom resource managed by a provider, a local component (no
 * provider), a remote component constructed by a provider. */
#define PCL_RESOURCE_KINDS(X) X(CUSTOM) X(COMPONENT) X(REMOTE)

/* Kinds of config types (pcl_type_kind, PCL_TY_<name>); see pcl_type. */
#define PCL_TYPE_KINDS(X) X(ANY) X(BOOL) X(INT) X(NUMBER) X(STRING) X(LIST) X(MAP) X(OBJECT) X(OPTIONAL)

/* Flags of pcl_gen_for (PCL_GEN_FOR_<name>): X(name, bit). */
#define PCL_GEN_FOR_FLAGS(X) X(OBJECT, 1) X(GROUP, 2) X(COND, 4) X(CONCAT, 8)

/* Flags of a traversal step in a row and of pcl_gen_attr and
 * pcl_gen_index: the attribute or key is declared by the static type (a
 * missing one reads null), and (steps) the step is an index, or it is
 * declared by some members of a discriminated union (two more row entries
 * follow the flags: the discriminator's name and the list of the
 * discriminator values that declare it), and (steps) the key is computed:
 * the row entry before the flags is then the key's position among the
 * traversal's computed keys instead of a constant's index. */
#define PCL_GEN_DECLARED 1
#define PCL_GEN_STEP_INDEX 2
#define PCL_GEN_STEP_BY_MEMBER 4
#define PCL_GEN_STEP_KEYED 8

#endif
