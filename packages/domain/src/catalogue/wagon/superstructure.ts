import type { ChapterDef, CollectionDef, Condition, TabDef } from '../model.ts';
import { measure, measureIn, numbers } from '../fields.ts';

/**
 * The wagon tabs superstructure, tank, additionalGrid, aggreementGrid and loadAddress
 * (docs/requirements/orders.md#superstructure-chapters, docs/requirements/orders.md#superstructure-data). Paths are
 * relative to `technicalWaggon{Incoming|Outgoing}`; the superstructure chapters are relative to their entry of
 * `Superstructure.SuperstructureCollection.Superstructure`. See docs/field-catalogue/wagon-superstructure.md for the
 * choices made where the spec is silent.
 */

const count = measure(undefined, 0);
const mm = measureIn('mm');
/** Pressures are gauge pressures in MPa with three decimals (0.021 MPa vacuum valves, 2.5 MPa LPG tanks). */
const mpa = measure('MPa', 3);
const tonnes = measureIn('t');
const celsius = measure('°C', 0, { negatable: true });

/* ------------------------------------------------------------------------------------------------------------ */
/* Superstructure: one sub-tab per superstructure type                                                           */
/* ------------------------------------------------------------------------------------------------------------ */

/**
 * The superstructure types in picker order. `all` is not on the seeded `ListAufbautyp` (whose codes also type
 * the value lists), so the differentiator has no list: the picker offers these values, titled by
 * `catalogue.entryValue.Aufbautyp.<code>`.
 */
export const SUPERSTRUCTURE_TYPES: readonly string[] = [
  'all',
  'tank',
  'staubgut',
  'schuettgut',
  'flatwagon',
  'autoTransporter',
  'box',
];

/** The wagon's superstructures, one entry per type; the chapters below are laid out inside each entry. */
export const SUPERSTRUCTURES: CollectionDef = {
  path: 'Superstructure.SuperstructureCollection.Superstructure',
  differentiator: { path: 'Aufbautyp', kind: 'option', ignoreProgress: true },
  values: SUPERSTRUCTURE_TYPES,
  min: 0,
  max: SUPERSTRUCTURE_TYPES.length,
  fields: [],
};

/**
 * A chapter shows for its superstructure types and for type `all`
 * (docs/requirements/orders.md#superstructure-chapters).
 */
const forTypes = (...types: string[]): Condition => ({ field: 'Aufbautyp', op: 'in', values: ['all', ...types] });

const yes = (field: string): Condition => ({ field, op: 'equals', value: true });

/** Tank equipment (fittings, heating, insulation); the tank's approval and test data are on the tank tab. */
const superstructureTank: ChapterDef = {
  id: 'superstructureTank',
  visibleWhen: forTypes('tank'),
  fields: [
    { path: 'TankEquipment.Untenentleerung', kind: 'boolean' },
    {
      path: 'TankEquipment.Bodenventilbauart',
      kind: 'string',
      visibleWhen: yes('TankEquipment.Untenentleerung'),
    },
    { path: 'TankEquipment.Obenentleerung', kind: 'boolean' },
    { path: 'TankEquipment.Sicherheitsventil', kind: 'boolean' },
    mpa('TankEquipment.AnsprechdruckSicherheitsventil', { visibleWhen: yes('TankEquipment.Sicherheitsventil') }),
    { path: 'TankEquipment.Berstscheibe', kind: 'boolean' },
    { path: 'TankEquipment.Vakuumventil', kind: 'boolean' },
    { path: 'TankEquipment.Gaspendelanschluss', kind: 'boolean' },
    { path: 'TankEquipment.Heizung', kind: 'boolean', label: 'tankHeating' },
    {
      path: 'TankEquipment.Heizungsart',
      kind: 'string',
      label: 'tankHeatingType',
      visibleWhen: yes('TankEquipment.Heizung'),
    },
    { path: 'TankEquipment.Isolierung', kind: 'boolean', label: 'tankInsulation' },
    {
      path: 'TankEquipment.Isolierungsart',
      kind: 'string',
      label: 'tankInsulationType',
      visibleWhen: yes('TankEquipment.Isolierung'),
    },
    { path: 'TankEquipment.Sonnenschutzdach', kind: 'boolean' },
    { path: 'TankEquipment.Dichtungswerkstoff', kind: 'string', label: 'tankGasketMaterial' },
    { path: 'TankEquipment.Erdungsanschluss', kind: 'boolean' },
    { path: 'TankEquipment.Laufsteg', kind: 'boolean', label: 'tankWalkway' },
  ],
};

/** A dust (powder) wagon: pressure-discharge silo containers. */
const superstructureStaubgut: ChapterDef = {
  id: 'superstructureStaubgut',
  visibleWhen: forTypes('staubgut'),
  fields: [
    count('Staubgut.AnzahlBehaelter', { label: 'staubgutContainerCount' }),
    { path: 'Staubgut.Entleerungsart', kind: 'string', label: 'staubgutDischargeType' },
    count('Staubgut.AnzahlAuslaufstutzen', { label: 'staubgutOutletCount' }),
    mpa('Staubgut.Betriebsdruck', { label: 'staubgutWorkingPressure' }),
    mpa('Staubgut.Pruefdruck', { label: 'staubgutTestPressure' }),
    { path: 'Staubgut.Sicherheitsventil', kind: 'boolean' },
    mpa('Staubgut.AnsprechdruckSicherheitsventil', { visibleWhen: yes('Staubgut.Sicherheitsventil') }),
    { path: 'Staubgut.Innenbeschichtung', kind: 'boolean', label: 'staubgutInnerCoating' },
  ],
};

/** The fluidising bottoms of a dust wagon that loosen the powder with compressed air for discharge. */
const fluidisation: ChapterDef = {
  id: 'fluidisation',
  visibleWhen: forTypes('staubgut'),
  fields: [
    { path: 'Fluidisation.Fluidisierungsart', kind: 'string' },
    count('Fluidisation.AnzahlFluidisierungselemente'),
    { path: 'Fluidisation.Fluidisierungsgewebe', kind: 'string' },
    mpa('Fluidisation.Belueftungsdruck'),
    { path: 'Fluidisation.Rueckschlagventil', kind: 'boolean', label: 'fluidisationCheckValve' },
    { path: 'Fluidisation.FluidisierungsgewebeErneuert', kind: 'boolean', side: 'out' },
  ],
};

/** A bulk (hopper) wagon: gravity discharge through flaps, with an open or opening roof. */
const superstructureSchuettgut: ChapterDef = {
  id: 'superstructureSchuettgut',
  visibleWhen: forTypes('schuettgut'),
  fields: [
    { path: 'Schuettgut.Entladeart', kind: 'string', label: 'bulkDischargeType' },
    count('Schuettgut.AnzahlTrichter', { label: 'bulkHopperCount' }),
    count('Schuettgut.AnzahlEntladeklappen', { label: 'bulkDischargeFlapCount' }),
    { path: 'Schuettgut.Klappenbetaetigung', kind: 'string', label: 'bulkFlapOperation' },
    { path: 'Schuettgut.Dosiereinrichtung', kind: 'boolean', label: 'bulkMeteringDevice' },
    { path: 'Schuettgut.Dachart', kind: 'string', label: 'bulkRoofType' },
    { path: 'Schuettgut.Verschleissbleche', kind: 'boolean', label: 'bulkWearPlates' },
    { path: 'Schuettgut.Ruettleranschluss', kind: 'boolean', label: 'bulkVibratorBracket' },
  ],
};

/** A flat wagon's load-securing equipment: stanchions, lashing rings, walls, spigots. */
const flatwagonEquipment: ChapterDef = {
  id: 'flatwagonEquipment',
  visibleWhen: forTypes('flatwagon'),
  fields: [
    count('Flatwagon.AnzahlRungen'),
    { path: 'Flatwagon.Rungenart', kind: 'string' },
    count('Flatwagon.AnzahlZurrringe'),
    { path: 'Flatwagon.ZurrringBelastbarkeit', kind: 'double', unit: 'kN', decimals: 0 },
    { path: 'Flatwagon.Stirnwaende', kind: 'boolean', label: 'flatwagonEndWalls' },
    mm('Flatwagon.Stirnwandhoehe', 0, { label: 'flatwagonEndWallHeight', visibleWhen: yes('Flatwagon.Stirnwaende') }),
    { path: 'Flatwagon.Bordwaende', kind: 'boolean', label: 'flatwagonSideBoards' },
    { path: 'Flatwagon.Fussbodenart', kind: 'string', label: 'flatwagonFloorType' },
    count('Flatwagon.AnzahlContainerzapfen'),
  ],
};

/** A car carrier's decks, their clear heights and the bridging plates between wagons. */
const autoTransporterDecks: ChapterDef = {
  id: 'autoTransporterDecks',
  visibleWhen: forTypes('autoTransporter'),
  fields: [
    count('AutoTransporter.AnzahlLadeebenen', { label: 'carCarrierDeckCount' }),
    mm('AutoTransporter.LichteHoeheUnterdeck', 0, { label: 'carCarrierLowerDeckHeight' }),
    mm('AutoTransporter.LichteHoeheOberdeck', 0, { label: 'carCarrierUpperDeckHeight' }),
    { path: 'AutoTransporter.OberdeckVerstellbar', kind: 'boolean', label: 'carCarrierUpperDeckAdjustable' },
    {
      path: 'AutoTransporter.OberdeckAntrieb',
      kind: 'string',
      label: 'carCarrierUpperDeckDrive',
      visibleWhen: yes('AutoTransporter.OberdeckVerstellbar'),
    },
    { path: 'AutoTransporter.Ueberfahrbruecken', kind: 'boolean', label: 'carCarrierBridgingPlates' },
    count('AutoTransporter.AnzahlRadvorleger', { label: 'carCarrierWheelChockCount' }),
    { path: 'AutoTransporter.Seitenverkleidung', kind: 'boolean', label: 'carCarrierSideCladding' },
    { path: 'AutoTransporter.Dach', kind: 'boolean', label: 'carCarrierRoof' },
  ],
};

/** A covered wagon's body: doors, walls, roof, floor and load-securing partitions. */
const boxBody: ChapterDef = {
  id: 'boxBody',
  visibleWhen: forTypes('box'),
  fields: [
    { path: 'Box.Tuerart', kind: 'string', label: 'boxDoorType' },
    count('Box.AnzahlTueren', { label: 'boxDoorCount' }),
    mm('Box.LichteTuerweite', 0, { label: 'boxDoorWidth' }),
    mm('Box.LichteTuerhoehe', 0, { label: 'boxDoorHeight' }),
    { path: 'Box.Schiebewaende', kind: 'boolean', label: 'boxSlidingWalls' },
    { path: 'Box.Wandwerkstoff', kind: 'string', label: 'boxWallMaterial' },
    { path: 'Box.Dachart', kind: 'string', label: 'boxRoofType' },
    count('Box.AnzahlLueftungsklappen', { label: 'boxVentCount' }),
    { path: 'Box.Fussbodenart', kind: 'string', label: 'boxFloorType' },
    count('Box.AnzahlTrennwaende', { label: 'boxPartitionCount' }),
  ],
};

/** The manholes and filling openings of tank and dust wagons. */
const manhole: ChapterDef = {
  id: 'manhole',
  visibleWhen: forTypes('tank', 'staubgut'),
  fields: [
    count('Manhole.AnzahlMannloecher'),
    mm('Manhole.Mannlochdurchmesser', 0),
    { path: 'Manhole.Deckelverschluss', kind: 'string', label: 'manholeClosureType' },
    { path: 'Manhole.Dichtungswerkstoff', kind: 'string', label: 'manholeGasketMaterial' },
    { path: 'Manhole.DichtungErneuert', kind: 'boolean', side: 'out', label: 'manholeGasketRenewed' },
    count('Manhole.AnzahlEinfuelloeffnungen'),
  ],
};

const superstructureRemarks: ChapterDef = {
  id: 'superstructureRemarks',
  fields: [{ path: 'Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true }],
};

/** The superstructure tab: a summary of the entries (add, remove) and one sub-tab per superstructure type. */
export const superstructureTab: TabDef = {
  id: 'superstructure',
  perEntry: SUPERSTRUCTURES,
  chapters: [
    superstructureTank,
    superstructureStaubgut,
    fluidisation,
    superstructureSchuettgut,
    flatwagonEquipment,
    autoTransporterDecks,
    boxBody,
    manhole,
    superstructureRemarks,
  ],
};

/* ------------------------------------------------------------------------------------------------------------ */
/* Tank: the tank plate and the tank tests (RID 6.8.2.4, 6.8.2.5)                                                */
/* ------------------------------------------------------------------------------------------------------------ */

/** Multi-compartment tanks: each compartment's capacity and, where it differs, its test pressure. */
const TANK_COMPARTMENTS: CollectionDef = {
  path: 'Tank.CompartmentCollection.Compartment',
  differentiator: { path: 'Kammernummer', kind: 'option', ignoreProgress: true },
  values: numbers(1, 6),
  min: 0,
  max: 6,
  countField: 'Tank.AnzahlKammern',
  fields: [
    { path: 'Fassungsraum', kind: 'double', unit: 'l', decimals: 0, label: 'compartmentCapacity' },
    mpa('Pruefdruck', { label: 'compartmentTestPressure' }),
  ],
};

/** The tank tests by kind (A, L, P, D, K): when and by whom last done, and when due next. */
const TANK_TESTS: CollectionDef = {
  path: 'Tank.TestCollection.TankTest',
  differentiator: { path: 'Tankpruefungsart', kind: 'option', list: 'ListTankpruefungsart', ignoreProgress: true },
  values: ['A', 'L', 'P', 'D', 'K'],
  min: 0,
  max: 5,
  fields: [
    { path: 'Pruefdatum', kind: 'monthAndYear', label: 'tankTestDate' },
    { path: 'Pruefstelle', kind: 'string', label: 'tankTestWorkshop' },
    { path: 'Sachverstaendiger', kind: 'string', label: 'tankTestExpert' },
    { path: 'NaechstePruefung', kind: 'monthAndYear', label: 'tankTestNextDue', deadline: true },
    mm('GemesseneWanddicke', 1, {
      label: 'tankMeasuredWallThickness',
      visibleWhen: { field: 'Tankpruefungsart', op: 'equals', value: 'D' },
    }),
  ],
};

export const tankTab: TabDef = {
  id: 'tank',
  chapters: [
    {
      id: 'tankData',
      fields: [
        { path: 'Tank.Tanknummer', kind: 'string' },
        { path: 'Tank.Zulassungsnummer', kind: 'string', label: 'tankApprovalNumber' },
        { path: 'Tank.Tankcodierung', kind: 'option', list: 'ListTankcodierung', extraEntries: true },
        { path: 'Tank.Sondervorschriften', kind: 'string', label: 'tankSpecialProvisions' },
        { path: 'Tank.Tankhersteller', kind: 'string' },
        { path: 'Tank.Herstellnummer', kind: 'string', label: 'tankSerialNumber' },
        { path: 'Tank.Baujahr', kind: 'year', label: 'tankYearOfManufacture' },
        mpa('Tank.Pruefdruck', { label: 'tankTestPressure' }),
        mpa('Tank.Berechnungsdruck', { label: 'tankCalculationPressure' }),
        mpa('Tank.Betriebsdruck', { label: 'tankWorkingPressure' }),
        mpa('Tank.AeussererBerechnungsdruck', { label: 'tankExternalDesignPressure' }),
        { path: 'Tank.Fassungsraum', kind: 'double', unit: 'l', decimals: 0, label: 'tankCapacity' },
        count('Tank.AnzahlKammern', { label: 'tankCompartmentCount' }),
        celsius('Tank.MinimaleFuelltemperatur', { label: 'tankMinFillingTemperature' }),
        celsius('Tank.BerechnungstemperaturMin', { label: 'tankDesignTemperatureMin' }),
        celsius('Tank.BerechnungstemperaturMax', { label: 'tankDesignTemperatureMax' }),
        { path: 'Tank.Tankwerkstoff', kind: 'string', label: 'tankShellMaterial' },
        mm('Tank.Mindestwanddicke', 1, { label: 'tankMinWallThickness' }),
        { path: 'Tank.Auskleidung', kind: 'string', label: 'tankLining' },
        { path: 'Tank.Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true },
      ],
    },
    { id: 'tankCompartments', collection: TANK_COMPARTMENTS },
    { id: 'tankTests', collection: TANK_TESTS },
  ],
};

/* ------------------------------------------------------------------------------------------------------------ */
/* Additional grid, agreement grid, load markings                                                                */
/* ------------------------------------------------------------------------------------------------------------ */

/** The additional load limit grid for a country group (German CM and CM/D line categories). */
export const additionalGridTab: TabDef = {
  id: 'additionalGrid',
  chapters: [
    {
      id: 'additionalGridValues',
      fields: [
        { path: 'AdditionalGrid.Laendergruppennummer', kind: 'string', label: 'additionalGridCountryGroupNumber' },
        { path: 'AdditionalGrid.Laendergruppen', kind: 'string', label: 'additionalGridCountryGroups' },
        tonnes('AdditionalGrid.CMD80', 1, { label: 'additionalGridCMD80' }),
        tonnes('AdditionalGrid.CMD100', 1, { label: 'additionalGridCMD100' }),
        tonnes('AdditionalGrid.CM100', 1, { label: 'additionalGridCM100' }),
      ],
    },
  ],
};

/** The grid for traffic under a bi- or multilateral agreement: its country group and the origin country. */
export const aggreementGridTab: TabDef = {
  id: 'aggreementGrid',
  chapters: [
    {
      id: 'agreementGridValues',
      fields: [
        { path: 'AgreementGrid.Laendergruppe', kind: 'string', label: 'agreementGridCountryGroup' },
        { path: 'AgreementGrid.Ursprungsland', kind: 'string', label: 'agreementGridOriginCountry' },
      ],
    },
  ],
};

/**
 * Concentrated loads the wagon is marked for (EN 15877-1 marking for concentrated loads): each case a bearing
 * length and the load allowed on it. Cases are numbered in the order painted on the wagon.
 */
const CONCENTRATED_LOADS: CollectionDef = {
  path: 'LoadAddress.ConcentratedLoadCollection.ConcentratedLoad',
  differentiator: { path: 'Einzellastfall', kind: 'option', ignoreProgress: true },
  values: numbers(1, 6),
  min: 0,
  max: 6,
  fields: [
    { path: 'Auflagelaenge', kind: 'double', unit: 'm', decimals: 2, label: 'concentratedLoadLength' },
    tonnes('Einzellast', 1, { label: 'concentratedLoadMass' }),
  ],
};

/**
 * The wagon's load markings beside the grids: the load limit inscription as painted, the maximum payload, the
 * maximum load per metre and the concentrated loads. Loading length, floor area and volume are on the labeling
 * tab, the permissible axle load on basedata.
 */
export const loadAddressTab: TabDef = {
  id: 'loadAddress',
  chapters: [
    {
      id: 'loadAddressValues',
      fields: [
        { path: 'LoadAddress.Lastgrenzenanschrift', kind: 'string', width: 'full' },
        tonnes('LoadAddress.MaximaleLademasse', 1),
        tonnes('LoadAddress.MaximaleMeterlast', 2),
        { path: 'LoadAddress.Bemerkung', kind: 'textarea', width: 'full', ignoreProgress: true },
      ],
    },
    { id: 'concentratedLoads', collection: CONCENTRATED_LOADS },
  ],
};
