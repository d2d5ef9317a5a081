// dbb-codegen --class Project --column name=itemName --index name
// Objective-C declarations from an old header.
@property (nonatomic, copy, nonnull) NSString *name;
@property (nonatomic, copy) NSString *code;
@property (nonatomic) double budget;
@property (nonatomic, strong) NSDate *startDate;
@property (nonatomic, strong) NSDate *endDate;
@property (nonatomic, strong) NSArray<NSString *> *tags;
@property (nonatomic, strong) Person *projectLead;
@property (nonatomic, strong) Project *subProject;
